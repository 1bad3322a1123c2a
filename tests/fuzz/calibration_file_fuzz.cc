// The calibration file as ReadCalibratedApps reads it, from any bytes: a bad file is one
// line of InvalidArgument, never a crash; the models of a file that loads are written
// and read back unchanged.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

#include "check.h"
#include "scratch_file.h"
#include "tools/runtime/calibration_file.h"

namespace {

using mrlocal::fuzz::Check;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace mrlocal;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto apps = ReadCalibratedApps(fuzz::ScratchFile("calibration.json", bytes));
  if (!apps.ok()) {
    Check(apps.status().code() == Status::Code::kInvalidArgument);
    Check(apps.status().message().find('\n') == std::string::npos);
    return 0;
  }
  const std::filesystem::path saved = fuzz::ScratchDir() / "saved.json";
  std::filesystem::remove(saved);
  Check(UpdateCalibration(saved, *apps).ok());
  auto again = ReadCalibratedApps(saved);
  Check(again.ok() && *again == *apps);
  return 0;
}
