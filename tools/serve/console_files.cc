#include "tools/serve/console_files.h"

#include <utility>
#include <vector>

namespace mrlocal {
namespace {

// {"/console/NAME", "content"}, one per file of tools/serve/console (CMakeLists.txt).
const std::vector<std::pair<std::string_view, std::string_view>> kFiles = {
#include "tools/serve/console_files.inc"
};

std::string_view TypeOf(std::string_view path) {
  auto ends = [path](std::string_view ext) {
    return path.size() >= ext.size() && path.substr(path.size() - ext.size()) == ext;
  };
  if (ends(".html")) return "text/html; charset=utf-8";
  if (ends(".js")) return "text/javascript; charset=utf-8";
  if (ends(".css")) return "text/css; charset=utf-8";
  if (ends(".svg")) return "image/svg+xml";
  return "application/octet-stream";
}

}  // namespace

std::optional<ConsoleFileData> ConsoleFile(std::string_view path) {
  if (path == "/" || path == "/console" || path == "/console/") path = "/console/index.html";
  for (const auto& [name, body] : kFiles)
    if (name == path) return ConsoleFileData{TypeOf(name), body};
  return std::nullopt;
}

}  // namespace mrlocal
