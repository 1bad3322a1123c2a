#include "engine/crc32c.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace mrlocal {
namespace {

std::string RandomBytes(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::string s(n, '\0');
  for (auto& c : s) c = static_cast<char>(rng());
  return s;
}

TEST(Crc32c, StandardCheckValues) {
  struct Case {
    std::string data;
    uint32_t crc;
  };
  // RFC 3720 (iSCSI) B.4 test vectors and the usual "123456789" check value.
  const std::vector<Case> cases = {
      {"", 0u},
      {"123456789", 0xE3069283u},
      {std::string(32, '\0'), 0x8A9136AAu},
      {std::string(32, '\xFF'), 0x62A8AB43u},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(Crc32c(c.data), c.crc) << c.data.size() << " bytes";
    EXPECT_EQ(Crc32cPortable(0, c.data.data(), c.data.size()), c.crc);
    if (HasHardwareCrc32c()) {
      EXPECT_EQ(Crc32cHardware(0, c.data.data(), c.data.size()), c.crc);
    }
  }
}

TEST(Crc32c, HardwareAndPortableAgreeOnManyLengthsAndAlignments) {
  if (!HasHardwareCrc32c()) GTEST_SKIP() << "no SSE4.2 on this CPU";
  const std::string buf = RandomBytes(80000, 1);
  // Lengths around the 3-stream thresholds (3 x 256 and 3 x 8192 bytes) and their seams.
  const std::vector<size_t> lengths = {0,    1,     7,     8,     9,     15,    16,    17,
                                       63,   64,    65,    767,   768,   769,   1000,  1543,
                                       4000, 24575, 24576, 24577, 25344, 49152, 50000, 79990};
  for (size_t off = 0; off < 9; ++off) {
    for (size_t n : lengths) {
      EXPECT_EQ(Crc32cHardware(0, buf.data() + off, n), Crc32cPortable(0, buf.data() + off, n))
          << "offset " << off << ", length " << n;
    }
  }
  std::mt19937 rng(2);
  for (int i = 0; i < 300; ++i) {
    size_t off = rng() % 64, n = rng() % (buf.size() - off);
    uint32_t seed = rng();
    ASSERT_EQ(Crc32cHardware(seed, buf.data() + off, n), Crc32cPortable(seed, buf.data() + off, n))
        << "offset " << off << ", length " << n << ", initial crc " << seed;
  }
}

TEST(Crc32c, ExtendingInPiecesEqualsOneGo) {
  const std::string s = RandomBytes(30000, 3);
  const uint32_t whole = Crc32c(s);
  for (size_t cut : {0, 1, 5, 8, 100, 767, 768, 8192, 24576, 29999, 30000}) {
    EXPECT_EQ(
        Crc32cExtend(Crc32c(std::string_view(s).substr(0, cut)), s.data() + cut, s.size() - cut),
        whole)
        << cut;
    EXPECT_EQ(Crc32cPortable(Crc32cPortable(0, s.data(), cut), s.data() + cut, s.size() - cut),
              whole)
        << cut;
  }
}

TEST(Crc32c, DetectsEverySingleBitFlip) {
  std::string s = RandomBytes(1000, 4);
  const uint32_t good = Crc32c(s);
  for (size_t i = 0; i < s.size(); i += 37) {
    for (int bit = 0; bit < 8; ++bit) {
      s[i] ^= static_cast<char>(1 << bit);
      EXPECT_NE(Crc32c(s), good) << "byte " << i << " bit " << bit;
      s[i] ^= static_cast<char>(1 << bit);
    }
  }
}

}  // namespace
}  // namespace mrlocal
