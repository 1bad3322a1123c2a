// The history file as LoadHistoryFile reads it, from any bytes: a bad file is one line of
// InvalidArgument (corrupt) or Corruption (a newer version), never a crash; a file that
// loads saves, and loads back bit-exact (the saved bytes are a fixed point).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include "check.h"
#include "scratch_file.h"
#include "tools/runtime/history_file.h"

namespace mrlocal {
namespace {

using mrlocal::fuzz::Check;

std::string Slurp(const std::filesystem::path& p) {
  std::ostringstream s;
  s << std::ifstream(p, std::ios::binary).rdbuf();
  return s.str();
}

// Saves `c`, loads what was saved, saves that: the two saved files must be the same.
void CheckRoundTrip(const HistoryContents& c) {
  const std::filesystem::path first = fuzz::ScratchDir() / "saved1.json";
  const std::filesystem::path second = fuzz::ScratchDir() / "saved2.json";
  Check(SaveHistoryFile(c, first).ok());
  Result<HistoryContents> again = LoadHistoryFile(first);
  Check(again.ok());
  Check(SaveHistoryFile(*again, second).ok());
  Check(Slurp(first) == Slurp(second));
}

}  // namespace
}  // namespace mrlocal

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace mrlocal;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  Result<HistoryContents> c = LoadHistoryFile(fuzz::ScratchFile("history.json", bytes));
  if (c.ok()) {
    CheckRoundTrip(*c);
    return 0;
  }
  const Status::Code code = c.status().code();
  Check(code == Status::Code::kInvalidArgument || code == Status::Code::kCorruption);
  Check(c.status().message().find('\n') == std::string::npos);
  return 0;
}
