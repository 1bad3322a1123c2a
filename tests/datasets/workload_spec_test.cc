// JSON workload specs: the README example, defaults, and one clear line for every mistake.
#include "datasets/workload_spec.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "datasets/graph_generator.h"
#include "datasets/workload_file.h"
#include "tests/util/test_util.h"
#include "tools/runtime/app_registry.h"

namespace mrlocal {
namespace {

using ::testing::HasSubstr;

// The apps a spec may name, with their fields: the registry's.
const AppSchemas& Apps() { return AppRegistry::BuiltIn().schemas(); }

// The README's example, byte for byte.
constexpr std::string_view kReadmeExample = R"json({
  "name": "mixed", "cluster": "2x(1m,1r,1.0)", "block_size": "32MiB",
  "model": {"noise": 0.1, "shuffle_delay_s": 0},
  "reduce_slowstart": 0.05,
  "availability": [{"nodes": [1], "profile": [[0, 1.0], [60, 0.5], [120, 1.0]]}],
  "jobs": [
    {"name": "wc1", "arrival_s": 0, "app": "wordcount",
     "input": {"generate": "text", "size": "64MiB", "seed": 3},
     "reduces": 2, "deadline_s": 30, "weight": 2, "queue": "a"},
    {"arrival_s": 5, "app": "wordcount", "input": {"files": ["corpus.txt"]}},
    {"arrival_s": 6, "app": "friendcount",
     "input": {"generate": "graph", "nodes": 100000, "edges": 1000000, "seed": 1}},
    {"arrival_s": 8, "app": "pi", "maps": 4, "samples": 10000000},
    {"arrival_s": 9, "app": "synthetic", "maps": 10, "reduces": 2, "map_s": 12,
     "reduce_s": [20, 25]}
  ]})json";

WorkloadSpec Parse(std::string_view text, std::string_view base_dir = {}) {
  Result<WorkloadSpec> r = ParseWorkloadJson(text, "spec.json", Apps(), base_dir);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? std::move(*r) : WorkloadSpec{};
}

// The error message of a spec that must fail, checking it is one InvalidArgument line.
std::string Error(std::string_view text) {
  Result<WorkloadSpec> r = ParseWorkloadJson(text, "spec.json", Apps());
  EXPECT_FALSE(r.ok()) << text;
  if (r.ok()) return "";
  EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(r.status().message().find('\n'), std::string::npos) << r.status().message();
  return r.status().message();
}

// A spec around one job.
std::string OneJob(std::string_view job) { return R"({"jobs": [)" + std::string(job) + "]}"; }

// Issue 19's bound: a generated input without "maps" gets a map per block, so a huge size
// or a tiny block size declared 10^9 tasks (or wrapped round uint32_t) at no cost.
TEST(WorkloadSpec, AGeneratedInputOfTooManyBlocksIsRefused) {
  EXPECT_THAT(
      Error(OneJob(R"({"arrival_s": 0, "app": "wordcount",
                               "input": {"generate": "text", "size": "1PiB"}})")),
      ::testing::AllOf(
          HasSubstr("spec.json: jobs[0].input: "),
          HasSubstr(" in blocks of 128.0 MiB is 8388608 maps, over the 1000000 a job may have")));
  EXPECT_THAT(Error(R"({"block_size": 1, "jobs": [{"arrival_s": 0, "app": "friendcount",
                        "input": {"generate": "graph", "nodes": 1000, "edges": 1000000}}]})"),
              HasSubstr("spec.json: jobs[0].input: "));
  // With "maps" the input is split into that many maps, whatever its size.
  Result<WorkloadSpec> ok =
      ParseWorkloadJson(OneJob(R"({"arrival_s": 0, "app": "wordcount", "maps": 4,
                 "input": {"generate": "text", "size": "1PiB"}})"),
                        "spec.json", Apps());
  EXPECT_TRUE(ok.ok()) << ok.status().message();
}

// Each job within its bounds, the whole over them: 2,000 jobs of 10^6 maps (or of the
// blocks of a generated input) declare more tasks than a workload may have; 19 of them
// do not.
TEST(WorkloadSpec, AWorkloadOfTooManyTasksIsRefused) {
  auto jobs = [](int n, const std::string& job) {
    std::string text = R"({"jobs": [)";
    for (int i = 0; i < n; ++i) text += (i ? "," : "") + job;
    return text + "]}";
  };
  const std::string by_maps =
      R"({"arrival_s": 0, "app": "synthetic", "maps": 1000000, "reduces": 1, "map_s": 1, "reduce_s": 1})";
  const std::string by_blocks =
      R"({"arrival_s": 0, "app": "wordcount", "input": {"generate": "text", "size": "100TiB"}})";
  for (const std::string& job : {by_maps, by_blocks}) {
    Result<WorkloadSpec> many = ParseWorkloadJson(jobs(2000, job), "spec.json", Apps());
    ASSERT_TRUE(many.ok()) << many.status().message();
    const Status refused = CheckWorkloadTasks(*many);
    EXPECT_EQ(refused.code(), Status::Code::kInvalidArgument);
    EXPECT_THAT(refused.message(), HasSubstr("the workload's 2000 jobs declare "));
    EXPECT_THAT(refused.message(), HasSubstr(" tasks, over the 20000000 a workload may have"));
    Result<WorkloadSpec> few = ParseWorkloadJson(jobs(19, job), "spec.json", Apps());
    ASSERT_TRUE(few.ok());
    EXPECT_TRUE(CheckWorkloadTasks(*few).ok());
  }
}

// Found with tests/fuzz/workload_spec_fuzz's one-line check, on inputs written to probe
// it: a key or a name with a line break (JSON's "\n") broke the message over two lines;
// Error checks it is one.
TEST(WorkloadSpec, WhatTheSpecQuotesStaysOnOneLine) {
  EXPECT_THAT(Error(OneJob(R"({"arrival_s": 0, "app": "p\ni", "maps": 1})")), HasSubstr("'p\\ni'"));
  EXPECT_THAT(Error(OneJob(R"({"arrival_s": 0, "app": "pi", "maps": 1, "samples": 1, "x\ny": 1})")),
              HasSubstr("jobs[0].x\\ny: "));
  Result<std::vector<QueueSpec>> queues =
      ParseQueueListJson(R"([{"name": "a\nb"}, {"name": "a\nb"}])", "q.json");
  ASSERT_FALSE(queues.ok());
  EXPECT_EQ(queues.status().message().find('\n'), std::string::npos) << queues.status().message();
}

TEST(WorkloadSpec, ParsesTheReadmeExample) {
  const WorkloadSpec spec = Parse(kReadmeExample, "/specs");
  EXPECT_EQ(spec.name, "mixed");
  EXPECT_EQ(spec.source, "spec.json");
  ASSERT_TRUE(spec.cluster.has_value());
  EXPECT_EQ(spec.cluster->ToString(), "2x(1m,1r,1.0)");
  EXPECT_EQ(spec.block_size, 32u << 20);
  EXPECT_DOUBLE_EQ(spec.model.noise, 0.1);
  EXPECT_EQ(spec.reduce_slowstart, 0.05);
  ASSERT_EQ(spec.availability.size(), 1u);
  EXPECT_EQ(spec.availability[0].nodes, std::vector<int>{1});
  ASSERT_EQ(spec.availability[0].steps.size(), 3u);
  EXPECT_DOUBLE_EQ(spec.availability[0].steps[1].at_s, 60);
  EXPECT_DOUBLE_EQ(spec.availability[0].steps[1].factor, 0.5);
  ASSERT_EQ(spec.jobs.size(), 5u);

  const WorkloadJob& wc = spec.jobs[0];
  EXPECT_EQ(wc.name, "wc1");
  EXPECT_EQ(wc.app, "wordcount");
  EXPECT_EQ(wc.input.kind, InputSpec::Kind::kGenerated);
  EXPECT_EQ(wc.input.generator, "text");
  EXPECT_EQ(wc.input.bytes, 64u << 20);
  EXPECT_EQ(wc.input.seed, 3u);
  EXPECT_EQ(wc.maps, 0u);
  EXPECT_EQ(wc.reduces, 2u);
  EXPECT_EQ(wc.deadline_s, 30.0);
  EXPECT_DOUBLE_EQ(wc.weight, 2);
  EXPECT_EQ(wc.queue, "a");

  const WorkloadJob& files = spec.jobs[1];
  EXPECT_EQ(files.name, "job1");
  EXPECT_EQ(files.input.kind, InputSpec::Kind::kFiles);
  EXPECT_EQ(files.input.files, std::vector<std::string>{"/specs/corpus.txt"});
  EXPECT_EQ(files.reduces, 1u);
  EXPECT_FALSE(files.deadline_s.has_value());
  EXPECT_DOUBLE_EQ(files.weight, 1);
  EXPECT_EQ(files.queue, "default");

  const WorkloadJob& graph = spec.jobs[2];
  EXPECT_EQ(graph.input.generator, "graph");
  EXPECT_EQ(graph.input.graph_nodes, 100000u);
  EXPECT_EQ(graph.input.graph_edges, 1000000u);
  // Ids below 100,000 have 4.89 digits on average: 1M lines of about 11.8 bytes.
  EXPECT_NEAR(static_cast<double>(graph.input.bytes), 11.78e6, 0.01e6);

  const WorkloadJob& pi = spec.jobs[3];
  EXPECT_EQ(pi.app, "pi");
  EXPECT_EQ(pi.maps, 4u);
  EXPECT_EQ(pi.params.Count("samples"), 10000000u);
  EXPECT_EQ(pi.input.kind, InputSpec::Kind::kNone);

  const WorkloadJob& syn = spec.jobs[4];
  EXPECT_EQ(syn.name, "job4");
  EXPECT_EQ(syn.maps, 10u);
  EXPECT_EQ(syn.params.TaskSeconds("map_s"), std::vector<double>{12});
  EXPECT_EQ(syn.params.TaskSeconds("reduce_s"), (std::vector<double>{20, 25}));
}

TEST(WorkloadSpec, DefaultsFromTheSourceAndTheStruct) {
  const WorkloadSpec spec =
      *ParseWorkloadJson(OneJob(R"({"arrival_s": 0, "app": "pi", "maps": 1, "samples": 5})"),
                         "dir/night-run.json", Apps());
  EXPECT_EQ(spec.name, "night-run");
  EXPECT_FALSE(spec.cluster.has_value());
  EXPECT_EQ(spec.block_size, WorkloadSpec{}.block_size);
  EXPECT_TRUE(spec.availability.empty());
  EXPECT_FALSE(spec.reduce_slowstart.has_value()) << "reduces wait for the map stage";
  EXPECT_EQ(spec.jobs[0].name, "job0");
}

TEST(WorkloadSpec, SortsJobsStablyByArrival) {
  const WorkloadSpec spec = Parse(R"({"jobs": [
      {"name": "c", "arrival_s": 9, "app": "pi", "maps": 1, "samples": 1},
      {"name": "a", "arrival_s": 1, "app": "pi", "maps": 1, "samples": 1},
      {"name": "d", "arrival_s": 9, "app": "pi", "maps": 1, "samples": 1},
      {"name": "b", "arrival_s": 1.5, "app": "pi", "maps": 1, "samples": 1}]})");
  std::vector<std::string> names;
  for (const auto& j : spec.jobs) names.push_back(j.name);
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b", "c", "d"}));
}

TEST(WorkloadSpec, SizesDeadlinesAndIntegersInTheirForms) {
  const WorkloadSpec spec = Parse(R"({"block_size": 1048576, "jobs": [
      {"arrival_s": 0, "app": "wordcount", "input": {"generate": "text", "size": "1.5GiB"},
       "deadline": "2m", "shuffle_bytes": "1GB", "output_bytes": 12, "shuffle_delay_s": 0.5},
      {"arrival_s": 0, "app": "wordcount", "input": {"generate": "text", "size": 1000},
       "deadline": "1500ms", "maps": 3, "reduces": 0},
      {"arrival_s": 0, "app": "friendcount", "input": {"generate": "graph", "size": "100MiB"}},
      {"arrival_s": 0, "app": "pi", "maps": 1e1, "samples": 1e6}]})");
  EXPECT_EQ(spec.block_size, 1u << 20);
  EXPECT_EQ(spec.jobs[0].input.bytes, 3u << 29);
  EXPECT_EQ(spec.jobs[0].deadline_s, 120.0);
  EXPECT_EQ(spec.jobs[0].shuffle_bytes, 1'000'000'000u);
  EXPECT_EQ(spec.jobs[0].output_bytes, 12u);
  EXPECT_DOUBLE_EQ(spec.jobs[0].shuffle_delay_s, 0.5);
  EXPECT_EQ(spec.jobs[1].input.bytes, 1000u);
  EXPECT_EQ(spec.jobs[1].deadline_s, 1.5);
  EXPECT_EQ(spec.jobs[1].maps, 3u);
  EXPECT_EQ(spec.jobs[1].reduces, 0u);
  // A graph given by size gets nodes and edges of about that size, 10 edges per node.
  const InputSpec& g = spec.jobs[2].input;
  EXPECT_EQ(g.bytes, 100u << 20);
  EXPECT_EQ(g.graph_edges / 10, g.graph_nodes);
  EXPECT_NEAR(static_cast<double>(GraphBytes(g.graph_nodes, g.graph_edges)),
              static_cast<double>(g.bytes), 1e-4 * static_cast<double>(g.bytes));
  EXPECT_EQ(spec.jobs[3].maps, 10u);
  EXPECT_EQ(spec.jobs[3].params.Count("samples"), 1'000'000u);
}

TEST(WorkloadSpec, GraphBytesCountsDigits) {
  EXPECT_EQ(GraphBytes(10, 5), 160u + 5 * 4);  // "3\t7\n"
  EXPECT_EQ(GraphBytes(100, 10), 160u + 10 * (2 * 1.9 + 2));
  const GraphSize tiny = GraphForBytes(10);
  EXPECT_EQ(tiny.nodes, 2u);
  EXPECT_EQ(tiny.edges, 1u);
}

// The one graph-size formula is the generator's: what `mrlocal gen graph` writes is the size
// the readers, the simulation and calibration assume.
TEST(WorkloadSpec, GraphBytesIsWhatTheGeneratorWrites) {
  for (const GraphSize g : {GraphSize{1000, 10'000}, GraphSize{100'000, 200'000},
                            GraphForBytes(3 << 20), GraphForBytes(3 << 20, 1'000'000)}) {
    GraphOptions o;
    o.nodes = g.nodes;
    o.edges = g.edges;
    o.skew = 24;
    Result<std::string> text = GenerateGraph(o);
    ASSERT_TRUE(text.ok()) << text.status().message();
    EXPECT_NEAR(static_cast<double>(GraphBytes(g.nodes, g.edges)),
                static_cast<double>(text->size()), 0.005 * static_cast<double>(text->size()))
        << g.nodes << " nodes, " << g.edges << " edges";
  }
}

TEST(WorkloadSpec, LoadsFilesRelativeToTheSpec) {
  testing::ScratchDir dir;
  std::filesystem::create_directories(dir / "specs" / "data");
  // The inputs must exist (LoadWorkloadJson checks them); the absolute one is elsewhere.
  const std::string abs = (dir / "c.txt").string();
  for (const auto& f : {dir / "specs" / "data" / "a.txt", dir / "b.txt", dir / "c.txt"})
    testing::WriteFile(f, "x");
  testing::WriteFile(dir / "specs" / "w.json", R"({"jobs": [{"arrival_s": 0, "app": "wordcount",
      "input": {"files": ["data/a.txt", "../b.txt", ")" +
                                                   abs + R"("]}}]})");
  Result<WorkloadSpec> spec = LoadWorkloadJson((dir / "specs" / "w.json").string(), Apps());
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  const std::string base = (dir / "specs").string();
  EXPECT_EQ(spec->jobs[0].input.files,
            (std::vector<std::string>{base + "/data/a.txt", dir.path().string() + "/b.txt", abs}));
  EXPECT_EQ(spec->source, (dir / "specs" / "w.json").string());
  EXPECT_EQ(spec->name, "w");
}

TEST(WorkloadSpec, SyntaxErrorsGiveLineAndColumn) {
  EXPECT_THAT(Error("{\n  \"jobs\": [\n    {\"arrival_s\": 0,}\n  ]\n}"),
              HasSubstr("spec.json:3:21: JSON syntax error: "));
  EXPECT_THAT(Error(""), HasSubstr("spec.json:1:1: JSON syntax error: "));
  EXPECT_THAT(Error("{\"jobs\": [1, 2"), HasSubstr("spec.json:1:15: JSON syntax error: "));
}

TEST(WorkloadSpec, EveryMistakeIsOneLineNamingTheField) {
  struct Case {
    std::string text;
    std::string want;
  };
  const std::string pi = R"("app": "pi", "maps": 1, "samples": 1)";
  const std::vector<Case> cases = {
      {"[]", "spec.json: the top level must be a JSON object (got [])"},
      {"{}", "spec.json: jobs: missing"},
      {R"({"jobs": []})", "spec.json: jobs: must be a non-empty list of jobs (got [])"},
      {R"({"jobs": {}})", "spec.json: jobs: must be a non-empty list"},
      {R"({"jbos": []})", "spec.json: jbos: unknown key (did you mean 'jobs'?)"},
      {R"({"zzz": 1, "jobs": []})", "spec.json: zzz: unknown key (known: name, description,"},
      {R"j({"cluster": "2x(1m,1r)", "jobs": []})j",
       "spec.json: cluster: '2x(1m,1r)': expected ',' and a speed"},
      {R"({"cluster": 2, "jobs": []})", "spec.json: cluster: must be a non-empty string (got 2)"},
      {R"({"block_size": "32M", "jobs": []})", "spec.json: block_size: ambiguous unit 'm'"},
      {R"({"block_size": 0, "jobs": []})",
       "spec.json: block_size: must be a positive size (got 0)"},
      {R"({"block_size": -5, "jobs": []})", "spec.json: block_size: must be a size"},
      {R"({"model": {"noise": -1}, "jobs": []})",
       "spec.json: model.noise: must be a non-negative number (got -1)"},
      {R"({"model": {"sigma": 1}, "jobs": []})", "spec.json: model.sigma: unknown key"},
      {R"({"model": [], "jobs": []})", "spec.json: model: must be a JSON object (got [])"},
      {R"({"reduce_slowstart": 0, "jobs": []})",
       "spec.json: reduce_slowstart: must be a positive number (got 0)"},
      {R"({"reduce_slowstart": 1.5, "jobs": []})",
       "spec.json: reduce_slowstart: must be a fraction in (0, 1] (got 1.5)"},
      {OneJob("3"), "spec.json: jobs[0]: must be a JSON object (got 3)"},
      {OneJob(R"({"arrival_s": -2, )" + pi + "}"),
       "spec.json: jobs[0].arrival_s: must be a non-negative number (got -2)"},
      {OneJob(R"({"arrival_s": "5", )" + pi + "}"),
       "spec.json: jobs[0].arrival_s: must be a non-negative number (got \"5\")"},
      {OneJob(R"({"arrival_s": 1e999, )" + pi + "}"),
       "spec.json:1:25: JSON number out of range: 1e999"},
      {OneJob(R"({)" + pi + "}"), "spec.json: jobs[0].arrival_s: missing"},
      {OneJob(R"({"arrival_s": 0})"),
       "spec.json: jobs[0].app: missing (one of wordcount, friendcount, pi, synthetic)"},
      {OneJob(R"({"arrival_s": 0, "app": "wordcont"})"),
       "spec.json: jobs[0].app: unknown app 'wordcont' (known: wordcount, friendcount, pi, "
       "synthetic)"},
      {OneJob(R"({"arival_s": 0, )" + pi + "}"),
       "spec.json: jobs[0].arival_s: unknown key (did you mean 'arrival_s'?)"},
      {OneJob(R"({"arrival_s": 0, "name": "", )" + pi + "}"),
       "spec.json: jobs[0].name: must be a non-empty string"},
      {OneJob(R"({"arrival_s": 0, "weight": 0, )" + pi + "}"),
       "spec.json: jobs[0].weight: must be a positive number (got 0)"},
      {OneJob(R"({"arrival_s": 0, "queue": 7, )" + pi + "}"),
       "spec.json: jobs[0].queue: must be a non-empty string (got 7)"},
      {OneJob(R"({"arrival_s": 0, "deadline_s": 0, )" + pi + "}"),
       "spec.json: jobs[0].deadline_s: must be a positive number (got 0)"},
      {OneJob(R"({"arrival_s": 0, "deadline": "30", )" + pi + "}"),
       "spec.json: jobs[0].deadline: missing unit in duration '30'"},
      {OneJob(R"({"arrival_s": 0, "deadline": 30, )" + pi + "}"),
       "spec.json: jobs[0].deadline: must be a duration such as \"30s\" (got 30) (or use "
       "deadline_s"},
      {OneJob(R"({"arrival_s": 0, "deadline": "3s", "deadline_s": 3, )" + pi + "}"),
       "spec.json: jobs[0].deadline: give deadline_s or deadline, not both"},
      {OneJob(R"({"arrival_s": 0, "reduces": -1, )" + pi + "}"),
       "spec.json: jobs[0].reduces: must be an integer from 0 to 1000000 (got -1)"},
      {OneJob(R"({"arrival_s": 0, "reduces": 1.5, )" + pi + "}"),
       "spec.json: jobs[0].reduces: must be an integer from 0 to 1000000 (got 1.5)"},
      {OneJob(R"({"arrival_s": 0, "shuffle_delay_s": -1, )" + pi + "}"),
       "spec.json: jobs[0].shuffle_delay_s: must be a non-negative number"},
      {OneJob(R"({"arrival_s": 0, "shuffle_bytes": "lots", )" + pi + "}"),
       "spec.json: jobs[0].shuffle_bytes: cannot read size 'lots'"},
      // pi
      {OneJob(R"({"arrival_s": 0, "app": "pi", "samples": 5})"),
       "spec.json: jobs[0].maps: missing: pi jobs need maps >= 1"},
      {OneJob(R"({"arrival_s": 0, "app": "pi", "maps": 0, "samples": 5})"),
       "spec.json: jobs[0].maps: must be an integer from 1 to 1000000 (got 0)"},
      {OneJob(R"({"arrival_s": 0, "app": "pi", "maps": 2})"),
       "spec.json: jobs[0].samples: missing: pi jobs need samples per map >= 1"},
      {OneJob(R"({"arrival_s": 0, "app": "pi", "maps": 2, "samples": 0})"),
       "spec.json: jobs[0].samples: must be an integer >= 1 (got 0)"},
      {OneJob(R"({"arrival_s": 0, )" + pi + R"(, "input": {"files": ["a"]}})"),
       "spec.json: jobs[0].input: pi jobs take no input"},
      {OneJob(R"({"arrival_s": 0, )" + pi + R"(, "map_s": 3})"),
       "spec.json: jobs[0].map_s: only synthetic jobs take map_s"},
      // synthetic
      {OneJob(R"({"arrival_s": 0, "app": "synthetic", "map_s": 3})"),
       "spec.json: jobs[0].maps: missing: synthetic jobs need maps >= 1"},
      {OneJob(R"({"arrival_s": 0, "app": "synthetic", "maps": 2, "reduce_s": 3})"),
       "spec.json: jobs[0].map_s: missing"},
      {OneJob(R"({"arrival_s": 0, "app": "synthetic", "maps": 2, "map_s": 3})"),
       "spec.json: jobs[0].reduce_s: missing: a synthetic job with reduces needs reduce task "
       "seconds"},
      {OneJob(
           R"({"arrival_s": 0, "app": "synthetic", "maps": 2, "reduces": 0, "map_s": 3, "reduce_s": 1})"),
       "spec.json: jobs[0].reduce_s: the job has no reduces (reduces is 0)"},
      {OneJob(R"({"arrival_s": 0, "app": "synthetic", "maps": 3, "map_s": [1, 2], "reduce_s": 1})"),
       "spec.json: jobs[0].map_s: 2 values for 3 maps (give one value for every task, or exactly "
       "maps values)"},
      {OneJob(R"({"arrival_s": 0, "app": "synthetic", "maps": 2, "map_s": [1, 0], "reduce_s": 1})"),
       "spec.json: jobs[0].map_s[1]: must be a positive number (got 0)"},
      {OneJob(
           R"({"arrival_s": 0, "app": "synthetic", "maps": 1, "map_s": 1, "reduces": 2, "reduce_s": [1, 2, 3]})"),
       "spec.json: jobs[0].reduce_s: 3 values for 2 reduces"},
      {OneJob(
           R"({"arrival_s": 0, "app": "synthetic", "maps": 1, "map_s": 1, "reduce_s": 1, "samples": 3})"),
       "spec.json: jobs[0].samples: only pi jobs take samples"},
      // data apps and inputs
      {OneJob(R"({"arrival_s": 0, "app": "wordcount"})"),
       "spec.json: jobs[0].input: missing: wordcount needs \"files\" or \"generate\""},
      {OneJob(R"({"arrival_s": 0, "app": "wordcount", "input": []})"),
       "spec.json: jobs[0].input: must be a JSON object (got [])"},
      {OneJob(R"({"arrival_s": 0, "app": "wordcount", "input": {}})"),
       "spec.json: jobs[0].input: needs \"files\" (a list of paths) or \"generate\""},
      {OneJob(
           R"({"arrival_s": 0, "app": "wordcount", "input": {"files": ["a"], "generate": "text"}})"),
       "spec.json: jobs[0].input: give \"files\" or \"generate\", not both"},
      {OneJob(R"({"arrival_s": 0, "app": "wordcount", "input": {"files": []}})"),
       "spec.json: jobs[0].input.files: must be a non-empty list of paths"},
      {OneJob(R"({"arrival_s": 0, "app": "wordcount", "input": {"files": "a.txt"}})"),
       "spec.json: jobs[0].input.files: must be a non-empty list of paths (got \"a.txt\")"},
      {OneJob(R"({"arrival_s": 0, "app": "wordcount", "input": {"files": ["a", 3]}})"),
       "spec.json: jobs[0].input.files[1]: must be a non-empty string (got 3)"},
      {OneJob(R"({"arrival_s": 0, "app": "wordcount", "input": {"files": ["a"], "seed": 2}})"),
       "spec.json: jobs[0].input.seed: only generated inputs take it"},
      {OneJob(R"({"arrival_s": 0, "app": "wordcount", "input": {"file": ["a"]}})"),
       "spec.json: jobs[0].input.file: unknown key (did you mean 'files'?)"},
      {OneJob(R"({"arrival_s": 0, "app": "wordcount", "input": {"generate": "zipf", "size": 5}})"),
       "spec.json: jobs[0].input.generate: unknown generator 'zipf' (known: text, graph)"},
      {OneJob(R"({"arrival_s": 0, "app": "wordcount", "input": {"generate": "graph", "size": 5}})"),
       "spec.json: jobs[0].input.generate: wordcount reads text: use \"text\""},
      {OneJob(
           R"({"arrival_s": 0, "app": "friendcount", "input": {"generate": "text", "size": 5}})"),
       "spec.json: jobs[0].input.generate: friendcount reads edge lists: use \"graph\""},
      {OneJob(R"({"arrival_s": 0, "app": "wordcount", "input": {"generate": "text"}})"),
       "spec.json: jobs[0].input.size: missing: a generated text needs its size"},
      {OneJob(R"({"arrival_s": 0, "app": "wordcount", "input": {"generate": "text", "size": 0}})"),
       "spec.json: jobs[0].input.size: must be a positive size (got 0)"},
      {OneJob(
           R"({"arrival_s": 0, "app": "wordcount", "input": {"generate": "text", "size": 9, "nodes": 5}})"),
       "spec.json: jobs[0].input.nodes: only graph inputs take it"},
      {OneJob(
           R"({"arrival_s": 0, "app": "wordcount", "input": {"generate": "text", "size": 9, "seed": -1}})"),
       "spec.json: jobs[0].input.seed: must be an integer >= 0 (got -1)"},
      {OneJob(
           R"({"arrival_s": 0, "app": "friendcount", "input": {"generate": "graph", "nodes": 5}})"),
       "spec.json: jobs[0].input: a generated graph needs \"size\", or \"nodes\" and \"edges\""},
      {OneJob(
           R"({"arrival_s": 0, "app": "friendcount", "input": {"generate": "graph", "nodes": 1, "edges": 5}})"),
       "spec.json: jobs[0].input.nodes: must be an integer from 2 to 4294967296 (got 1)"},
      {OneJob(
           R"({"arrival_s": 0, "app": "friendcount", "input": {"generate": "graph", "size": 9, "edges": 5}})"),
       "spec.json: jobs[0].input: give a graph's \"size\" or its \"nodes\" and \"edges\", not "
       "both"},
      {OneJob(R"({"arrival_s": 0, "app": "wordcount", "maps": -3, "input": {"files": ["a"]}})"),
       "spec.json: jobs[0].maps: must be an integer from 0 to 1000000 (got -3)"},
      // names
      {R"({"jobs": [{"name": "x", "arrival_s": 0, )" + pi + R"(}, {"name": "x", "arrival_s": 1, )" +
           pi + "}]}",
       "spec.json: jobs[1].name: duplicate name 'x' (also jobs[0])"},
      {R"({"jobs": [{"name": "job1", "arrival_s": 0, )" + pi + R"(}, {"arrival_s": 1, )" + pi +
           "}]}",
       "spec.json: jobs[1]: its default name 'job1' is taken by jobs[0]; give it a name"},
      {R"({"jobs": [{"arrival_s": 0, )" + pi + R"(}, {"name": "job0", "arrival_s": 1, )" + pi +
           "}]}",
       "spec.json: jobs[1].name: 'job0' is the default name of jobs[0]"},
      // repeated keys
      {R"({"jobs": [{"arrival_s": 0, "arrival_s": 1, )" + pi + "}]}",
       "spec.json: jobs[0].arrival_s: repeated key (JSON keeps only the last)"},
      {R"({"jobs": [{"arrival_s": 0, )" + pi +
           R"(}, {"arrival_s": 0, "input": {"files": ["a"], "files": ["b"]}, "app": "wordcount"}]})",
       "spec.json: jobs[1].input.files: repeated key"},
      // availability
      {R"({"availability": {}, "jobs": []})",
       "spec.json: availability: must be a list of {nodes, profile}"},
      {R"({"availability": [{"nodes": [0]}], "jobs": []})",
       "spec.json: availability[0].profile: missing"},
      {R"({"availability": [{"profile": [[0, 1]]}], "jobs": []})",
       "spec.json: availability[0].nodes: missing"},
      {R"({"availability": [{"nodes": [], "profile": [[0, 1]]}], "jobs": []})",
       "spec.json: availability[0].nodes: must be a non-empty list"},
      {R"({"availability": [{"nodes": [-1], "profile": [[0, 1]]}], "jobs": []})",
       "spec.json: availability[0].nodes[0]: must be an integer >= 0 (got -1)"},
      {R"j({"cluster": "2x(1m,1r,1.0)", "availability": [{"nodes": [0, 2], "profile": [[0, 1]]}], "jobs": []})j",
       "spec.json: availability[0].nodes[1]: node 2 is not in the cluster (2 nodes: "
       "2x(1m,1r,1.0))"},
      {R"({"availability": [{"nodes": [0], "profile": [[0, 1]]}, {"nodes": [1, 0], "profile": [[0, 1]]}], "jobs": []})",
       "spec.json: availability[1].nodes[1]: node 0 already has a profile (availability[0])"},
      {R"({"availability": [{"nodes": [0], "profile": []}], "jobs": []})",
       "spec.json: availability[0].profile: must be a non-empty list of [time_s, factor] steps"},
      {R"({"availability": [{"nodes": [0], "profile": [[0, 1, 2]]}], "jobs": []})",
       "spec.json: availability[0].profile[0]: must be a [time_s, factor] pair (got [0,1,2])"},
      {R"({"availability": [{"nodes": [0], "profile": [[-1, 1]]}], "jobs": []})",
       "spec.json: availability[0].profile[0][0]: must be a non-negative number (got -1)"},
      {R"({"availability": [{"nodes": [0], "profile": [[0, 0]]}], "jobs": []})",
       "spec.json: availability[0].profile[0][1]: must be a positive number (got 0)"},
      {R"({"availability": [{"nodes": [0], "profile": [[0, 1.5]]}], "jobs": []})",
       "spec.json: availability[0].profile[0][1]: factor must be in (0, 1] (got 1.5)"},
      {R"({"availability": [{"nodes": [0], "profile": [[0, 1], [60, 0.5], [60, 1]]}], "jobs": []})",
       "spec.json: availability[0].profile[2][0]: times must be strictly increasing (got 60)"},
      {R"({"availability": [{"nodes": [0], "profile": [[0, 1]], "speed": 1}], "jobs": []})",
       "spec.json: availability[0].speed: unknown key"},
  };
  for (const Case& c : cases) EXPECT_THAT(Error(c.text), HasSubstr(c.want)) << c.text;
}

TEST(WorkloadSpec, NodeIdsAreCheckedOnlyAgainstAGivenCluster) {
  const WorkloadSpec spec = Parse(R"({"availability": [{"nodes": [7, 3], "profile": [[10, 0.25]]}],
      "jobs": [{"arrival_s": 0, "app": "pi", "maps": 1, "samples": 1}]})");
  EXPECT_EQ(spec.availability[0].nodes, (std::vector<int>{7, 3}));
}

TEST(WorkloadFile, MissingFilesAndDirectoriesAreOneLine) {
  testing::ScratchDir dir;
  const std::string missing = (dir / "nope.json").string();
  Result<WorkloadSpec> r = LoadWorkload(missing, Apps());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kNotFound);
  EXPECT_EQ(r.status().message(), "cannot read '" + missing + "': No such file or directory");

  r = LoadWorkload(dir.path().string(), Apps());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "cannot read '" + dir.path().string() + "': Is a directory");

  r = LoadWorkload((dir / "nope.tsv").string(), Apps());
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("nope.tsv': No such file or directory"));
}

TEST(WorkloadFile, PicksTheReaderByName) {
  testing::ScratchDir dir;
  testing::WriteFile(dir / "t.tsv", "job0\t3\t3\t100\t0\t5\n");
  testing::WriteFile(dir / "s.json",
                     OneJob(R"({"arrival_s": 2, "app": "pi", "maps": 1, "samples": 1})"));
  Result<WorkloadSpec> trace = LoadWorkload((dir / "t.tsv").string(), Apps());
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  EXPECT_EQ(trace->jobs[0].app, "wordcount");
  Result<WorkloadSpec> spec = LoadWorkload((dir / "s.json").string(), Apps());
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  EXPECT_EQ(spec->jobs[0].app, "pi");
  // A trace under another name is read as JSON, and says so.
  testing::WriteFile(dir / "t.txt", "job0\t3\t3\t100\t0\t5\n");
  Result<WorkloadSpec> wrong = LoadWorkload((dir / "t.txt").string(), Apps());
  ASSERT_FALSE(wrong.ok());
  EXPECT_THAT(wrong.status().message(), HasSubstr("t.txt:1:1: JSON syntax error"));
}

}  // namespace
}  // namespace mrlocal
