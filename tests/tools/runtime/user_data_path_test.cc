// Where the user's files live: $MRLOCAL_HISTORY / $MRLOCAL_CALIBRATION, else the XDG data
// directory, else ~/.local/share.
#include "tools/runtime/user_data_path.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "tools/runtime/calibration_file.h"
#include "tools/runtime/history_file.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;

// Sets an environment variable for the scope, restoring the old value after.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value)
      ::setenv(name, value, 1);
    else
      ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(UserDataPath, HistoryAndCalibrationFollowTheEnvironment) {
  ScopedEnv history("MRLOCAL_HISTORY", nullptr), calibration("MRLOCAL_CALIBRATION", nullptr),
      xdg("XDG_DATA_HOME", nullptr), home("HOME", "/home/u");
  EXPECT_EQ(DefaultHistoryPath(), fs::path("/home/u/.local/share/mrlocal/history.json"));
  {
    ScopedEnv x("XDG_DATA_HOME", "/data");
    EXPECT_EQ(DefaultHistoryPath(), fs::path("/data/mrlocal/history.json"));
    ScopedEnv h("MRLOCAL_HISTORY", "/tmp/h.json");
    EXPECT_EQ(DefaultHistoryPath(), fs::path("/tmp/h.json"));
  }
  ScopedEnv empty_xdg("XDG_DATA_HOME", "");  // empty means unset, as XDG says
  EXPECT_EQ(DefaultHistoryPath(), fs::path("/home/u/.local/share/mrlocal/history.json"));
  EXPECT_EQ(DefaultCalibrationPath(), fs::path("/home/u/.local/share/mrlocal/calibration.json"));
  ScopedEnv c("MRLOCAL_CALIBRATION", "/tmp/c.json");
  EXPECT_EQ(DefaultCalibrationPath(), fs::path("/tmp/c.json"));
  EXPECT_EQ(DefaultHistoryPath(), fs::path("/home/u/.local/share/mrlocal/history.json"));
}

}  // namespace
}  // namespace mrlocal
