// The apps mrlocal ships, as registry descriptors (tools/runtime/app_registry.h): wordcount
// and friendcount read input files; pi and synthetic are given their work by their fields.
#pragma once

#include <vector>

#include "tools/runtime/app_registry.h"

namespace mrlocal {

// wordcount, friendcount, pi, synthetic: the order in which messages list them.
std::vector<AppDescriptor> BuiltInApps();

}  // namespace mrlocal
