// Bytes as lower-case hex and back: how secrets sit in key files and signatures in headers.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace mrlocal {

std::string ToHex(std::string_view bytes);
// None when `hex` has an odd length or a character that is not a hex digit.
std::optional<std::string> FromHex(std::string_view hex);

}  // namespace mrlocal
