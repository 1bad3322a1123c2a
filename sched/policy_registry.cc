#include "sched/policy_registry.h"

#include <functional>
#include <utility>

#include "sched/dc_policy.h"
#include "sched/edf_policy.h"
#include "sched/fair_policy.h"
#include "sched/fifo_policy.h"
#include "sched/rtmr_policy.h"

namespace mrlocal {
namespace {

using Factory = std::function<std::unique_ptr<Policy>(const PolicyOptions&)>;

// One line per policy. The name is part of the CLI and of every report: never rename.
const std::vector<std::pair<std::string, Factory>>& Registry() {
  static const std::vector<std::pair<std::string, Factory>> registry = {
      {"fifo", [](const PolicyOptions&) { return std::make_unique<FifoPolicy>(); }},
      {"fair", [](const PolicyOptions&) { return std::make_unique<FairPolicy>(); }},
      {"edf", [](const PolicyOptions&) { return std::make_unique<EdfPolicy>(); }},
      {"rtmr",
       [](const PolicyOptions& o) {
         return std::make_unique<RtmrPolicy>(o.history, RtmrOptions{true, o.feedback_threshold, o.estimate_margin});
       }},
      {"rtmr-nofb",
       [](const PolicyOptions& o) {
         return std::make_unique<RtmrPolicy>(o.history, RtmrOptions{false, o.feedback_threshold, o.estimate_margin});
       }},
      {"dc", [](const PolicyOptions& o) { return std::make_unique<DcPolicy>(o.history, o.estimate_margin); }},
  };
  return registry;
}

}  // namespace

Result<std::unique_ptr<Policy>> MakePolicy(std::string_view name, const PolicyOptions& options) {
  for (auto& [n, make] : Registry())
    if (n == name) return make(options);
  std::string names;
  for (auto& n : PolicyNames()) names += (names.empty() ? "" : ", ") + n;
  return Status::InvalidArgument("unknown policy '" + std::string(name) + "' (known: " + names +
                                 ")");
}

std::vector<std::string> PolicyNames() {
  std::vector<std::string> names;
  for (auto& [n, make] : Registry()) names.push_back(n);
  return names;
}

bool PolicyUsesHistory(std::string_view name) {
  return name == "rtmr" || name == "rtmr-nofb" || name == "dc";
}

}  // namespace mrlocal
