// Messages are one line (engine/status.h); these keep them so when they quote what a user
// wrote, which may hold line breaks (a JSON key "a\nb", an app name).
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

#include "engine/status.h"

namespace mrlocal {

// `text` with line breaks and other control bytes but tabs escaped ("\n", "\x01").
inline std::string OneLine(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if ((u < 0x20 && c != '\t') || u == 0x7f) {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02x", u);
      out += hex;
    } else {
      out += c;
    }
  }
  return out;
}

// The same failure with its message on one line.
inline Status OnOneLine(const Status& s) {
  return s.ok() ? s : Status::Of(s.code(), OneLine(s.message()));
}

}  // namespace mrlocal
