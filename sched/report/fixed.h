// Numbers in the report files: fixed decimals, independent of the locale, so that the
// same run gives the same bytes on every machine.
#pragma once

#include <string>

namespace mrlocal {

// `v` with exactly `decimals` decimals ("-0.000" prints as "0.000"); non-finite as "".
std::string Fixed(double v, int decimals);

}  // namespace mrlocal
