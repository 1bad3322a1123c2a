// A count and its noun as reports print them: "1 map task", "16 map tasks", "0 keys".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace mrlocal {

// `noun` is the singular; its plural adds an "s" (every noun the reports count does).
inline std::string Plural(uint64_t n, std::string_view noun) {
  std::string text = std::to_string(n);
  text.append(" ").append(noun);
  if (n != 1) text.push_back('s');
  return text;
}

}  // namespace mrlocal
