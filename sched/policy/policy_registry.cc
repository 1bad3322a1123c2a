#include "sched/policy/policy_registry.h"

#include <functional>
#include <utility>

#include "sched/policy/dc_policy.h"
#include "sched/policy/edf_policy.h"
#include "sched/policy/fair_policy.h"
#include "sched/policy/fifo_policy.h"
#include "sched/policy/rtmr_policy.h"

namespace mrlocal {
namespace {

using Factory = std::function<std::unique_ptr<Policy>(const PolicyOptions&)>;

struct Registered {
  std::string name;   // part of the CLI and of every report: never rename
  bool uses_history;  // admits by deadline from PolicyOptions::history
  Factory make;
};

// One line per policy.
const std::vector<Registered>& Registry() {
  static const std::vector<Registered> registry = {
      {"fifo", false, [](const PolicyOptions&) { return std::make_unique<FifoPolicy>(); }},
      {"fair", false, [](const PolicyOptions&) { return std::make_unique<FairPolicy>(); }},
      {"edf", false, [](const PolicyOptions&) { return std::make_unique<EdfPolicy>(); }},
      {"rtmr", true,
       [](const PolicyOptions& o) {
         return std::make_unique<RtmrPolicy>(
             o.history, RtmrOptions{true, o.feedback_threshold, o.estimate_margin});
       }},
      {"rtmr-nofb", true,
       [](const PolicyOptions& o) {
         return std::make_unique<RtmrPolicy>(
             o.history, RtmrOptions{false, o.feedback_threshold, o.estimate_margin});
       }},
      {"dc", true,
       [](const PolicyOptions& o) {
         return std::make_unique<DcPolicy>(o.history, o.estimate_margin);
       }},
  };
  return registry;
}

const Registered* Find(std::string_view name) {
  for (const Registered& r : Registry())
    if (r.name == name) return &r;
  return nullptr;
}

}  // namespace

Result<std::unique_ptr<Policy>> MakePolicy(std::string_view name, const PolicyOptions& options) {
  if (const Registered* r = Find(name)) return r->make(options);
  std::string names;
  for (auto& n : PolicyNames()) names += (names.empty() ? "" : ", ") + n;
  return Status::InvalidArgument("unknown policy '" + std::string(name) + "' (known: " + names +
                                 ")");
}

std::vector<std::string> PolicyNames() {
  std::vector<std::string> names;
  for (const Registered& r : Registry()) names.push_back(r.name);
  return names;
}

bool PolicyUsesHistory(std::string_view name) {
  const Registered* r = Find(name);
  return r && r->uses_history;
}

}  // namespace mrlocal
