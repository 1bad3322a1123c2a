// The web console's files (tools/serve/console/), built into the binary: the server needs
// nothing installed beside it, and fetches nothing from the internet.
#pragma once

#include <optional>
#include <string_view>

namespace mrlocal {

struct ConsoleFileData {
  std::string_view type;  // Content-Type
  std::string_view body;
};

// The file served at `path` ("/", "/console/" and "/console/index.html" are the page);
// none for any other path.
std::optional<ConsoleFileData> ConsoleFile(std::string_view path);

}  // namespace mrlocal
