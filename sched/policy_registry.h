// Policies by their stable name: the name `--policy` takes and the reports print.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/status.h"
#include "sched/policy.h"

namespace mrlocal {

Result<std::unique_ptr<Policy>> MakePolicy(std::string_view name);
std::vector<std::string> PolicyNames();

}  // namespace mrlocal
