// `--top N` as a user reads it: exactly the N highest-scoring keys of the job's output
// (ties in ascending key bytes), or every key when there are fewer, whatever the input
// size and the number of reduces; the same list in metrics.json. The reference is
// computed here from the part files the job wrote.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "datasets/text_generator.h"
#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;
using testing::KeyOrder;
using testing::ReadFile;
using testing::ReadJobOutput;
using testing::RunMrlocal;
using testing::ScratchDir;
using testing::WriteFile;

using KeyValues = std::vector<std::pair<std::string, std::string>>;

// The N best of a job's output by `score`, ties by key bytes (std::string's < compares
// bytes as unsigned char, as LC_ALL=C sort does).
KeyValues ReferenceTop(const std::map<std::string, std::string>& output, size_t n,
                       double (*score)(const std::string& value)) {
  KeyValues all(output.begin(), output.end());
  std::sort(all.begin(), all.end(), [score](const auto& a, const auto& b) {
    const double sa = score(a.second), sb = score(b.second);
    return sa != sb ? sa > sb : a.first < b.first;
  });
  if (all.size() > n) all.resize(n);
  return all;
}

double Number(const std::string& value) { return std::stod(value); }
double ListLength(const std::string& value) {
  return static_cast<double>(std::count(value.begin(), value.end(), ',') + 1);
}

// The "top K:" block of stdout: "  key  value" lines (keys and values have no blanks).
KeyValues PrintedTop(const std::string& out) {
  KeyValues top;
  std::istringstream in(out);
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line.rfind("top ", 0) == 0) {
      inside = true;
      continue;
    }
    if (!inside || line.rfind("  ", 0) != 0) {
      inside = false;
      continue;
    }
    std::istringstream fields(line);
    std::string key, value;
    fields >> key >> value;
    top.emplace_back(key, value);
  }
  return top;
}

KeyValues ReportedTop(const fs::path& metrics) {
  KeyValues top;
  auto json = nlohmann::json::parse(ReadFile(metrics));
  for (auto& t : json["per_job"][0]["top"]) top.emplace_back(t["key"], t["value"]);
  return top;
}

class TopCli : public ::testing::Test {
 protected:
  std::string P(const std::string& name) { return (dir_ / name).string(); }

  // Runs the job with --top `n` (none: the default 10) for each number of reduces and checks
  // stdout and metrics.json against the part files.
  void Check(std::vector<std::string> job, std::optional<int> n, KeyOrder order,
             double (*score)(const std::string&), std::initializer_list<int> reduces) {
    for (int r : reduces) {
      SCOPED_TRACE(job[0] + " --reduces " + std::to_string(r) +
                   (n ? " --top " + std::to_string(*n) : ""));
      std::vector<std::string> args = job;
      for (const std::string& a :
           {std::string("--reduces"), std::to_string(r), std::string("-o"), P("out"),
            std::string("--overwrite"), std::string("--report"), P("rep"), std::string("-q"),
            std::string("--block-size"), std::string("64KiB")})
        args.push_back(a);
      if (n) {
        args.push_back("--top");
        args.push_back(std::to_string(*n));
      }
      auto result = RunMrlocal(args);
      ASSERT_EQ(result.exit_code, 0) << result.err;
      const auto output = ReadJobOutput(dir_ / "out", order);
      const KeyValues want = ReferenceTop(output, static_cast<size_t>(n.value_or(10)), score);
      EXPECT_EQ(PrintedTop(result.out), want) << result.out;
      EXPECT_NE(result.out.find("top " + std::to_string(want.size()) + ":\n"), std::string::npos)
          << result.out;
      EXPECT_EQ(ReportedTop(dir_ / "rep" / "metrics.json"), want);
    }
  }

  ScratchDir dir_;
};

TEST_F(TopCli, TwelveWordsGiveTheDefaultTopTen) {
  WriteFile(dir_ / "w.txt", "a b c d e f g h i j k l a a b\n");
  Check({"wordcount", P("w.txt")}, std::nullopt, KeyOrder::kBytes, Number, {1, 2, 3, 5});
}

TEST_F(TopCli, TiesGoByKeyBytes) {
  // Every word once: the top 5 is the first 5 words in byte order, wherever they went.
  WriteFile(dir_ / "w.txt", "zebra apple Mango kiwi banana cherry date fig grape lemon\n");
  Check({"wordcount", P("w.txt")}, 5, KeyOrder::kBytes, Number, {1, 2, 4});
  // Integer keys tie in byte order too: "10" < "100" < "9".
  WriteFile(dir_ / "g.txt", "9 1000\n10 1001\n100 1002\n7 1003\n");
  Check({"friendcount", P("g.txt")}, 3, KeyOrder::kNumeric, Number, {1, 2, 3});
}

TEST_F(TopCli, FewerKeysThanNGiveEveryKey) {
  WriteFile(dir_ / "g.txt", "1 2\n2 3\n3 1\n");
  Check({"friendcount", P("g.txt"), "--list"}, std::nullopt, KeyOrder::kNumeric, ListLength,
        {1, 2, 3});
  WriteFile(dir_ / "w.txt", "one two two\n");
  Check({"wordcount", P("w.txt")}, 1000, KeyOrder::kBytes, Number, {3});
}

TEST_F(TopCli, ALargeInputWithManyReduces) {
  TextOptions o;
  o.bytes = 2 << 20;
  o.vocabulary = 20000;
  o.seed = 7;
  WriteFile(dir_ / "big.txt", GenerateText(o));
  Check({"wordcount", P("big.txt")}, 40, KeyOrder::kBytes, Number, {1, 3, 7});
  Check({"wordcount", P("big.txt")}, 3000, KeyOrder::kBytes, Number, {4});
}

TEST_F(TopCli, PiReportsBothOfItsKeys) {
  auto r = RunMrlocal({"pi", "3", "100", "-q", "--report", P("rep")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  KeyValues top = ReportedTop(dir_ / "rep" / "metrics.json");
  ASSERT_EQ(top.size(), 2u);
  EXPECT_EQ(std::stoull(top[0].second) + std::stoull(top[1].second), 300u);
}

}  // namespace
}  // namespace mrlocal
