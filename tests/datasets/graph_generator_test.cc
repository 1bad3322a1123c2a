// The graph generator: deterministic, valid SNAP edge lists, and the distinct-degree skew
// the user asked for; `mrlocal gen graph` writes exactly that or nothing.
#include "datasets/graph_generator.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <string_view>

#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

GraphOptions Options(GraphModel model, double skew, uint64_t nodes = 100000,
                     uint64_t edges = 1000000) {
  GraphOptions o;
  o.model = model;
  o.skew = skew;
  o.nodes = nodes;
  o.edges = edges;
  o.seed = 5;
  return o;
}

std::string Generate(const GraphOptions& o) {
  auto text = GenerateGraph(o);
  EXPECT_TRUE(text.ok()) << text.status().message();
  return text.ok() ? *text : "";
}

class GraphGeneratorModel : public ::testing::TestWithParam<GraphModel> {};

TEST_P(GraphGeneratorModel, SameSeedSameBytesWhateverTheThreads) {
  GraphOptions o = Options(GetParam(), 30, 5000, 200000);  // several chunks
  std::string a = Generate(o);
  EXPECT_EQ(Generate(o), a);
  // GenerateGraph makes chunks on every core; one thread, in order, gives the same bytes.
  auto gen = GraphGenerator::Create(o);
  ASSERT_TRUE(gen.ok());
  ASSERT_GT(gen->chunks(), 2u);
  std::string serial = gen->Header(), chunk;
  for (uint64_t i = 0; i < gen->chunks(); ++i) {
    gen->Chunk(i, &chunk);
    serial += chunk;
  }
  EXPECT_EQ(serial, a);
  o.seed = 6;
  EXPECT_NE(Generate(o), a);
}

TEST_P(GraphGeneratorModel, WritesAValidSnapEdgeList) {
  const GraphOptions o = Options(GetParam(), 10, 1000, 20000);
  const std::string text = Generate(o);
  std::string_view rest = text;
  int comments = 0;
  uint64_t edges = 0;
  bool bad_line_reported = false;
  while (!rest.empty()) {
    size_t nl = rest.find('\n');
    ASSERT_NE(nl, std::string_view::npos) << "the last line ends with a newline";
    std::string_view line = rest.substr(0, nl);
    rest.remove_prefix(nl + 1);
    if (line.starts_with('#')) {
      EXPECT_EQ(edges, 0u) << "comments come first";
      ++comments;
      continue;
    }
    size_t tab = line.find('\t');
    uint64_t u = 0, v = 0;
    bool ok = tab != std::string_view::npos && tab > 0 && tab + 1 < line.size();
    for (size_t i = 0; ok && i < line.size(); ++i)
      ok = i == tab || (line[i] >= '0' && line[i] <= '9');
    if (ok) {
      u = std::stoull(std::string(line.substr(0, tab)));
      v = std::stoull(std::string(line.substr(tab + 1)));
      ok = u < o.nodes && v < o.nodes && u != v;
    }
    if (!ok && !bad_line_reported) {
      ADD_FAILURE() << "bad line: '" << line << "'";
      bad_line_reported = true;
    }
    ++edges;
  }
  EXPECT_EQ(edges, o.edges);
  EXPECT_GE(comments, 2);
  EXPECT_NE(text.find("# FromNodeId\tToNodeId\n"), std::string::npos);
  EXPECT_NE(text.find(std::string(GraphModelName(o.model))), std::string::npos);
  EXPECT_NE(text.find("seed 5"), std::string::npos);
}

TEST_P(GraphGeneratorModel, HubsAreNotTheSmallestIds) {
  auto stats = MeasureDistinctDegree(Generate(Options(GetParam(), 50, 10000, 100000)));
  ASSERT_TRUE(stats.ok());
  EXPECT_NE(stats->max_node, 0u);
}

INSTANTIATE_TEST_SUITE_P(Models, GraphGeneratorModel,
                         ::testing::Values(GraphModel::kChungLu, GraphModel::kRmat),
                         [](const auto& info) {
                           return info.param == GraphModel::kRmat ? "Rmat" : "ChungLu";
                         });

// The skew of real graphs (facebook_combined 24, soc-Slashdot0902 208) on 100k nodes and
// 1M edges, measured as on real data: max/mean distinct-neighbour degree. The calibration
// counts duplicates and isolated nodes; measured deviations are under 5%, the bound is 10%.
struct SkewCase {
  GraphModel model;
  double skew;
};

class GraphGeneratorSkew : public ::testing::TestWithParam<SkewCase> {};

TEST_P(GraphGeneratorSkew, DistinctDegreeSkewIsTheTarget) {
  const SkewCase c = GetParam();
  auto stats = MeasureDistinctDegree(Generate(Options(c.model, c.skew)));
  ASSERT_TRUE(stats.ok());
  EXPECT_NEAR(stats->skew(), c.skew, 0.10 * c.skew)
      << "max " << stats->max_degree << " mean " << stats->mean_degree;
  EXPECT_EQ(stats->edges, 1000000u);
}

INSTANTIATE_TEST_SUITE_P(
    RealGraphSkews, GraphGeneratorSkew,
    ::testing::Values(SkewCase{GraphModel::kChungLu, 24}, SkewCase{GraphModel::kChungLu, 208},
                      SkewCase{GraphModel::kRmat, 24}, SkewCase{GraphModel::kRmat, 208}),
    [](const auto& info) {
      return std::string(info.param.model == GraphModel::kRmat ? "Rmat" : "ChungLu") +
             std::to_string(static_cast<int>(info.param.skew));
    });

TEST(GraphGenerator, RefusesOptionsOutOfRange) {
  auto refused = [](GraphOptions o, std::string_view fragment) {
    auto g = GraphGenerator::Create(o);
    ASSERT_FALSE(g.ok());
    EXPECT_EQ(g.status().code(), Status::Code::kInvalidArgument);
    EXPECT_NE(g.status().message().find(fragment), std::string::npos) << g.status().message();
  };
  GraphOptions o = Options(GraphModel::kChungLu, 10, 1000, 10000);
  o.nodes = 1;
  refused(o, "--nodes");
  o.nodes = (1ull << 32) + 1;
  refused(o, "--nodes");
  o.nodes = 1000;
  o.edges = 0;
  refused(o, "--edges");
  o.edges = 10000;
  o.skew = 1;
  refused(o, "--skew");
  o.skew = 1.2;  // with 20 neighbours on average, chance alone gives one node 1.8x that
  refused(o, "chance");
  o.skew = 5000;  // a node has at most 999 neighbours here
  refused(o, "reaches");
  o.model = GraphModel::kRmat;
  refused(o, "reaches");
  EXPECT_TRUE(ParseGraphModel("rmat").ok());
  EXPECT_EQ(*ParseGraphModel("chung-lu"), GraphModel::kChungLu);
  EXPECT_FALSE(ParseGraphModel("erdos").ok());
}

TEST(GraphGenerator, MeasuresRealGraphsLikeSnapCountsThem) {
  auto s = MeasureDistinctDegree("# c\n0\t1\n1\t0\n0 2\n2\t2\n3\t0\r\n");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->edges, 5u);
  EXPECT_EQ(s->distinct_pairs, 3u);  // {0,1} {0,2} {0,3}; the self-loop does not count
  EXPECT_EQ(s->nodes, 4u);
  EXPECT_EQ(s->max_degree, 3u);
  EXPECT_EQ(s->max_node, 0u);
  EXPECT_DOUBLE_EQ(s->skew(), 3 / 1.5);
  EXPECT_FALSE(MeasureDistinctDegree("0\t1\nx\t2\n").ok());
  EXPECT_FALSE(MeasureDistinctDegree("0\n").ok());
}

TEST(GenGraphCommand, WritesTheGeneratedGraph) {
  testing::ScratchDir dir;
  const auto file = dir / "g.txt";
  auto r = testing::RunMrlocal({"gen", "graph", "--nodes", "3000", "--edges", "70000", "--model",
                                "rmat", "--skew", "30", "--seed", "9", "-o", file.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  GraphOptions o = Options(GraphModel::kRmat, 30, 3000, 70000);
  o.seed = 9;
  EXPECT_EQ(testing::ReadFile(file), Generate(o));
  // Defaults: chung-lu, skew 100, seed 1.
  r = testing::RunMrlocal(
      {"gen", "graph", "--nodes", "3000", "--edges", "70000", "-o", file.string(), "--overwrite"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  o = Options(GraphModel::kChungLu, 100, 3000, 70000);
  o.seed = 1;
  EXPECT_EQ(testing::ReadFile(file), Generate(o));
  size_t files = 0;
  for (auto& e : std::filesystem::directory_iterator(dir.path())) files += !e.path().empty();
  EXPECT_EQ(files, 1u) << "no temporary left behind";
}

TEST(GenGraphCommand, BadArgumentsSayWhatIsWrongAndWriteNothing) {
  testing::ScratchDir dir;
  const std::string file = (dir / "g.txt").string();
  const std::vector<std::vector<std::string>> cases = {
      {"--nodes", "1", "--edges", "10"},
      {"--nodes", "100", "--edges", "0"},
      {"--nodes", "100", "--edges", "1000", "--skew", "0.5"},
      {"--nodes", "100", "--edges", "1000", "--skew", "1000"},
      {"--nodes", "100", "--edges", "1000", "--model", "erdos"},
      {"--nodes", "-3", "--edges", "1000"},
      {"--edges", "1000"},
  };
  for (const auto& args : cases) {
    std::vector<std::string> argv = {"gen", "graph", "-o", file};
    argv.insert(argv.end(), args.begin(), args.end());
    auto r = testing::RunMrlocal(argv);
    EXPECT_EQ(r.exit_code, 2) << args[0] << " " << args[1] << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("mrlocal: error: ", 0), 0u) << r.err;
    EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << r.err;
  }
  auto r = testing::RunMrlocal({"gen", "graph", "--nodes", "100", "--edges", "10", "-o",
                                (dir / "no" / "such" / "dir" / "g.txt").string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

}  // namespace
}  // namespace mrlocal
