// `mrlocal compare --policies rtmr:estimate-margin=1,rtmr:estimate-margin=4`: two variants
// of one policy side by side, each labelled by its entry in the tables, the CSVs and the
// charts; an entry's settings override the flags for it only; bad lists refused in one line.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

using testing::Contains;
using testing::ExpectUsageError;
using testing::ReadFile;
using testing::RunMrlocal;
using testing::ScratchDir;

// The cells after the label of the first row starting "| x |" after `table` in `out`.
std::vector<std::string> Row(const std::string& out, const std::string& table,
                             const std::string& x) {
  const size_t at = out.find(table);
  const size_t row = at == std::string::npos ? at : out.find("| " + x + " |", at);
  if (row == std::string::npos) return {};
  std::vector<std::string> cells;
  const std::string line = out.substr(row, out.find('\n', row) - row);
  for (size_t start = line.find('|', 1); start + 1 < line.size();) {
    const size_t end = line.find('|', start + 1);
    cells.push_back(line.substr(start + 2, end - start - 3));
    start = end;
  }
  return cells;
}

// More margin on every estimate: fewer jobs fit before their deadlines.
TEST(CompareVariants, MoreMarginAcceptsFewerJobsAndEachVariantIsLabelledByItsEntry) {
  ScratchDir dir;
  auto r = RunMrlocal({"compare", "--preset", "rtmr-wl1", "--sim", "--noise", "0.5", "--load", "4",
                       "--policies", "rtmr:estimate-margin=1,rtmr:estimate-margin=4", "--report",
                       dir.path().string(), "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "| load | rtmr:estimate-margin=1 | rtmr:estimate-margin=4 |\n"))
      << r.out;
  const auto accepted = Row(r.out, "| load |", "4");
  ASSERT_EQ(accepted.size(), 2u) << r.out;
  EXPECT_GT(std::stod(accepted[0]), std::stod(accepted[1])) << r.out;
  const std::string csv = ReadFile(dir / "accepted.csv");
  EXPECT_TRUE(Contains(csv, "\nrtmr:estimate-margin=1,4,")) << csv;
  EXPECT_TRUE(Contains(csv, "\nrtmr:estimate-margin=4,4,")) << csv;
  EXPECT_TRUE(Contains(ReadFile(dir / "accepted.svg"), ">rtmr:estimate-margin=4</text>"));
}

// The flag holds for every entry that sets nothing else; the entry's own value wins.
TEST(CompareVariants, AnEntrysSettingOverridesTheFlagForThatEntryOnly) {
  ScratchDir dir;
  auto r = RunMrlocal({"compare", "--preset", "rtmr-wl1", "--sim", "--noise", "0.5",
                       "--estimate-margin", "4", "--policies", "rtmr,rtmr:estimate-margin=1",
                       "--report", dir.path().string(), "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "| policy | seeds | jobs | accept ratio |")) << r.out;
  const auto flag = Row(r.out, "| policy |", "rtmr");
  const auto own = Row(r.out, "| policy |", "rtmr:estimate-margin=1");
  ASSERT_GE(flag.size(), 3u) << r.out;
  ASSERT_EQ(own.size(), flag.size()) << r.out;
  EXPECT_LT(std::stod(flag[2]), std::stod(own[2])) << "accept ratio: " << r.out;
  const std::string csv = ReadFile(dir / "comparison.csv");
  EXPECT_TRUE(Contains(csv, "\nrtmr:estimate-margin=1,1,")) << csv;
}

TEST(CompareVariants, BadListsAreRefusedInOneLineAndNothingRuns) {
  const std::vector<std::string> base = {"compare", "--preset", "rtmr-wl1", "--sim"};
  const struct {
    std::vector<std::string> args;
    const char* says;
  } cases[] = {
      {{"--policies", ""}, "--policies: expected a comma-separated list of policies"},
      {{"--policies", ","}, "--policies: expected a comma-separated list of policies"},
      {{"--policies", "edf,,rtmr"}, "--policies: an empty entry in 'edf,,rtmr'"},
      {{"--policies", "rtmr,rtmr"}, "--policies: 'rtmr' is given twice"},
      {{"--policies", "edf,rtmr:lof-threshold=2"},
       "--policies: rtmr has no setting 'lof-threshold' (its settings: estimate-margin, "
       "feedback-threshold"},
      {{"--policies", "rtmr:estimate-margin=0.5"},
       "estimate-margin must be a number in [1, 100] (got '0.5')"},
      {{"--policies", "rtmr:feedback-threshold=3"}, "feedback-threshold must be a positive "},
      // A variant of rtmr reads what rtmr reads, and nothing else.
      {{"--policies", "rtmr:estimate-margin=2", "--lof-threshold", "2"},
       "--lof-threshold applies to --policy llf only"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = base;
    args.insert(args.end(), c.args.begin(), c.args.end());
    SCOPED_TRACE(args.back());
    const auto r = RunMrlocal(args);
    ExpectUsageError(r, c.says);
    EXPECT_EQ(r.out, "");
  }
}

}  // namespace
}  // namespace mrlocal
