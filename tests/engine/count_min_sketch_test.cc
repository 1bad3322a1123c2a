// The count-min sketch of partition sizes: rows are partition functions, Merge adds.
#include "engine/count_min_sketch.h"

#include <gtest/gtest.h>

namespace mrlocal {
namespace {

TEST(CountMinSketch, RowsArePartitionFunctionsAndMergeAdds) {
  CountMinSketch a(MakePartitionHashes(4, 16, 7)), b(MakePartitionHashes(4, 16, 7));
  for (uint64_t k = 0; k < 1000; ++k) a.Add(k * 0x9E3779B97F4A7C15ull, 2);
  b.Add(42, 5);
  a.Merge(b);
  for (int r = 0; r < a.depth(); ++r) {
    uint64_t total = 0;
    for (auto v : a.Row(r)) total += v;
    EXPECT_EQ(total, 2005u) << "row " << r;
  }
  EXPECT_GE(a.Estimate(42), 5u);
  EXPECT_EQ(a.hash(0)(37), 37u % 16);
}

}  // namespace
}  // namespace mrlocal
