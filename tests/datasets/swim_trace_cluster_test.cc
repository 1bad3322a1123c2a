// The cluster a SWIM trace was recorded on, which a simulation replays it on by default.
#include <gtest/gtest.h>

#include "datasets/swim_trace.h"

namespace mrlocal {
namespace {

TEST(SwimTraceCluster, FacebooksTracesRunOnTheirOwnClusterSize) {
  // SWIM: FB-2009 from a 600-machine cluster, FB-2010 from the same grown to 3000.
  for (const char* f :
       {"FB-2009_samples_24_times_1hr_0.tsv", "traces/FB-2009_samples_24_times_1hr_1.tsv",
        "/data/samples_24_times_1hr_0.tsv"}) {
    std::optional<ClusterSpec> c = SwimTraceCluster(f);
    ASSERT_TRUE(c.has_value()) << f;
    EXPECT_EQ(c->ToString(), "600x(1m,1r,1.0)") << f;
  }
  for (const char* f : {"FB-2010_samples_24_times_1hr_0.tsv",
                        "x/FB-2010_samples_24_times_1hr_withInputPaths_0.tsv"}) {
    std::optional<ClusterSpec> c = SwimTraceCluster(f);
    ASSERT_TRUE(c.has_value()) << f;
    EXPECT_EQ(c->ToString(), "3000x(1m,1r,1.0)") << f;
    EXPECT_EQ(c->map_slots(), 3000);
  }
}

TEST(SwimTraceCluster, OtherNamesAreUnknown) {
  // Only the file's own name counts, not a folder that happens to be called FB-2009.
  for (const char* f : {"trace.tsv", "FB-2009/mine.tsv", "my-FB-2009.tsv", ""})
    EXPECT_FALSE(SwimTraceCluster(f).has_value()) << f;
}

}  // namespace
}  // namespace mrlocal
