#include "engine/crc32c.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace mrlocal {
namespace {

TEST(Crc32c, KnownCheckValue) {
  EXPECT_EQ(Crc32cPortable(0, "123456789", 9), 0xE3069283u);
  EXPECT_EQ(Crc32c("123456789"), 0xE3069283u);
  EXPECT_EQ(Crc32c(""), 0u);
}

TEST(Crc32c, HardwareAndPortableAgreeOnEveryLengthAndAlignment) {
  if (!HasHardwareCrc32c()) GTEST_SKIP() << "no SSE4.2 on this CPU";
  std::mt19937_64 rng(1);
  std::string buf(5000, '\0');
  for (auto& c : buf) c = static_cast<char>(rng());
  for (size_t off = 0; off < 9; ++off) {
    for (size_t n : {0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000, 4000}) {
      EXPECT_EQ(Crc32cHardware(0, buf.data() + off, n), Crc32cPortable(0, buf.data() + off, n))
          << off << " " << n;
    }
  }
}

TEST(Crc32c, ExtendingInPiecesEqualsOneGo) {
  std::string s = "the quick brown fox jumps over the lazy dog";
  uint32_t whole = Crc32c(s);
  for (size_t cut = 0; cut <= s.size(); ++cut) {
    EXPECT_EQ(Crc32cExtend(Crc32cExtend(0, s.data(), cut), s.data() + cut, s.size() - cut), whole);
    EXPECT_EQ(Crc32cPortable(Crc32cPortable(0, s.data(), cut), s.data() + cut, s.size() - cut), whole);
  }
}

}  // namespace
}  // namespace mrlocal
