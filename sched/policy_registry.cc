#include "sched/policy_registry.h"

#include <functional>
#include <utility>

#include "sched/edf_policy.h"
#include "sched/fair_policy.h"
#include "sched/fifo_policy.h"

namespace mrlocal {
namespace {

using Factory = std::function<std::unique_ptr<Policy>()>;

// One line per policy. The name is part of the CLI and of every report: never rename.
const std::vector<std::pair<std::string, Factory>>& Registry() {
  static const std::vector<std::pair<std::string, Factory>> registry = {
      {"fifo", [] { return std::make_unique<FifoPolicy>(); }},
      {"fair", [] { return std::make_unique<FairPolicy>(); }},
      {"edf", [] { return std::make_unique<EdfPolicy>(); }},
  };
  return registry;
}

}  // namespace

Result<std::unique_ptr<Policy>> MakePolicy(std::string_view name) {
  for (auto& [n, make] : Registry())
    if (n == name) return make();
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

}  // namespace mrlocal
