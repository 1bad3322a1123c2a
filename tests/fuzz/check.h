// A fuzzer's assertion: a property that does not hold aborts, which libFuzzer reports as a
// crash and saves the input that broke it (assert would vanish under NDEBUG).
#pragma once

#include <cstdlib>

namespace mrlocal::fuzz {

inline void Check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace mrlocal::fuzz
