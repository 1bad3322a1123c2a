// Named points where a crash test kills this process with SIGKILL, as `kill -9` would, to
// reach states that kills at random moments hit too rarely: each step of an output commit
// lasts microseconds. MRLOCAL_KILL_AT=NAME arms the point NAME (tools/bench/
// crash_kill_test.sh); unset, as in any real run, a point costs one pointer test.
#pragma once

#include <string_view>

namespace mrlocal {

void KillPoint(std::string_view name);

}  // namespace mrlocal
