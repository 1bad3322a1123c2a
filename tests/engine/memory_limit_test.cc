// The memory limit reads this process's resident set and what the system has left, and
// says the limit is passed exactly when the resident set is above it.
#include "engine/memory_limit.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <thread>

namespace mrlocal {
namespace {

TEST(MemoryLimit, ReadsTheResidentSetAndWhatTheSystemHasLeft) {
  const uint64_t before = MemoryLimit::ResidentBytes();
  ASSERT_GT(before, 0u);
  // 64 MiB touched page by page is resident.
  constexpr size_t kBytes = size_t{64} << 20;
  auto block = std::make_unique<char[]>(kBytes);
  std::memset(block.get(), 1, kBytes);
  EXPECT_GE(MemoryLimit::ResidentBytes(), before + kBytes / 2);
  EXPECT_GT(MemoryLimit::AvailableBytes(), 0u);
  EXPECT_GE(MemoryLimit::TotalBytes(), MemoryLimit::AvailableBytes());
  EXPECT_GT(MemoryLimit::DefaultBytes(), MemoryLimit::ResidentBytes());
  EXPECT_LE(MemoryLimit::DefaultBytes(), MemoryLimit::ResidentBytes() + MemoryLimit::TotalBytes());
}

TEST(MemoryLimit, IsPassedWhenTheResidentSetIsAboveIt) {
  const MemoryLimit low(1), high(UINT64_MAX - 1);
  EXPECT_TRUE(low.Exceeded());
  EXPECT_GT(low.last_resident(), 0u);
  EXPECT_FALSE(high.Exceeded());
}

TEST(MemoryLimit, SeesTheResidentSetGrowOnItsNextRead) {
  const MemoryLimit limit(UINT64_MAX - 1);
  EXPECT_FALSE(limit.Exceeded());
  const uint64_t first = limit.last_resident();
  auto block = std::make_unique<char[]>(size_t{32} << 20);
  std::memset(block.get(), 1, size_t{32} << 20);
  std::this_thread::sleep_for(MemoryLimit::kReadEvery * 2);  // reads are kReadEvery apart
  EXPECT_FALSE(limit.Exceeded());
  EXPECT_GT(limit.last_resident(), first);
}

}  // namespace
}  // namespace mrlocal
