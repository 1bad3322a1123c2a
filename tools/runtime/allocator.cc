#include "tools/runtime/allocator.h"

#include <mimalloc.h>

#include <cstdlib>

// Weak: sanitizer builds do not link mimalloc, and then there is nothing to tune.
#pragma weak mi_option_set

namespace mrlocal {

void TuneAllocator() {
  if (&mi_option_set == nullptr) return;
  // mimalloc reads its options at its first allocation, before main: set, not set_default.
  if (!std::getenv("MIMALLOC_DECOMMIT_DELAY") && !std::getenv("MIMALLOC_RESET_DELAY"))
    mi_option_set(mi_option_decommit_delay, 24L * 3600 * 1000);  // a day: never, in a run
}

}  // namespace mrlocal
