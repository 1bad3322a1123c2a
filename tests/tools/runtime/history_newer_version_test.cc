// A history file from a newer mrlocal (a later version, perhaps with keys this one does not
// know) is neither read as corrupt nor set aside nor rewritten: every use is an error that
// says so, and the file keeps its bytes. (An older binary met the version-3 file of issue 13
// as corrupt and renamed it.)
#include <gtest/gtest.h>

#include <sstream>

#include "tests/util/test_util.h"
#include "tools/runtime/history_file.h"

namespace mrlocal {
namespace {

using testing::Contains;
using testing::ReadFile;
using testing::ScratchDir;
using testing::WriteFile;

TEST(HistoryNewerVersion, IsLeftAsItIs) {
  ScratchDir dir;
  const auto path = dir / "history.json";
  const std::string text = "{\"version\": 99, \"apps\": {}, \"later\": true}\n";
  WriteFile(path, text);
  Result<HistoryContents> loaded = LoadHistoryFile(path);
  ASSERT_FALSE(loaded.ok());
  EXPECT_TRUE(Contains(loaded.status().message(), "from a newer mrlocal (version 99"))
      << loaded.status().message();
  std::ostringstream err;
  Result<HistoryFile> opened = HistoryFile::Open(path, err);
  ASSERT_FALSE(opened.ok());
  EXPECT_EQ(opened.status().message(), loaded.status().message());
  EXPECT_EQ(ReadFile(path), text);
  EXPECT_FALSE(std::filesystem::exists(dir / "history.json.corrupt"));
}

}  // namespace
}  // namespace mrlocal
