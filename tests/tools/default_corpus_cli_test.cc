// `mrlocal wordcount` with no input, the demo of tools/setup.sh: it counts the built-in
// corpus, made in memory, and its most frequent words are English's.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

TEST(DefaultCorpusCommand, CountsEnglishTextMadeInMemory) {
  testing::ScratchDir dir;
  const auto cwd = std::filesystem::current_path();
  std::filesystem::current_path(dir.path());
  const auto r = testing::RunMrlocal({"wordcount", "--top", "5"});
  std::filesystem::current_path(cwd);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("top 5:\n  the  ", 0), 0u) << r.out;
  size_t at = 0;
  for (const char* word : {"\n  the ", "\n  and ", "\n  to ", "\n  of ", "\n  a "}) {
    at = r.out.find(word, at);
    EXPECT_NE(at, std::string::npos) << word << " in order:\n" << r.out;
  }
  EXPECT_EQ(r.err.rfind("mrlocal: no input given: generating the built-in corpus in memory "
                        "(512.0 MiB of English-like text)\n",
                        0),
            0u)
      << r.err;
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "no file is written";
}

}  // namespace
}  // namespace mrlocal
