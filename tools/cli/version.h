// What `mrlocal --version` prints: the version, and the allocator that really serves
// malloc/new in this process.
#pragma once

#include <string>

namespace mrlocal {

std::string VersionText();

}  // namespace mrlocal
