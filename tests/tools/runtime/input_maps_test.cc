// A job's `maps` on file and generated inputs (README, "Workload spec"): the input is cut
// into that many splits, in simulation and for real alike, and a gzip file, one split
// otherwise, is unpacked to give them.
#include <gtest/gtest.h>

#include <string>

#include "tests/util/test_util.h"
#include "tools/runtime/workload_runner.h"

namespace mrlocal {
namespace {

// A friend-count graph of `lines` edges, ~10 bytes a line.
std::string Edges(int lines) {
  std::string text;
  for (int i = 0; i < lines; ++i)
    text += std::to_string(i % 97) + " " + std::to_string(1000 + i) + "\n";
  return text;
}

WorkloadSpec OneJob(InputSpec input, uint32_t maps) {
  WorkloadSpec spec;
  spec.name = "maps";
  WorkloadJob& j = spec.jobs.emplace_back();
  j.name = "fc";
  j.app = "friendcount";
  j.input = std::move(input);
  j.maps = maps;
  j.reduces = 2;
  return spec;
}

InputSpec Files(std::string path) {
  InputSpec in;
  in.kind = InputSpec::Kind::kFiles;
  in.files = {std::move(path)};
  return in;
}

// Map attempts that ran, and the bytes they read.
struct Maps {
  size_t count = 0;
  uint64_t bytes = 0;
};
Maps MapsOf(const WorkloadRun& run) {
  Maps m;
  for (const AttemptRecord& a : run.recorder->attempts())
    if (a.kind == TaskKind::kMap && a.ok()) ++m.count, m.bytes += a.input_bytes;
  return m;
}

Maps RunMaps(const WorkloadSpec& spec, bool sim) {
  WorkloadRunOptions o;
  o.cluster = *ClusterSpec::Parse("2x(1m,1r,1.0)");
  auto run = sim ? RunWorkloadSim(spec, o) : RunWorkloadReal(spec, o);
  EXPECT_TRUE(run.ok()) << run.status().message();
  return run.ok() ? MapsOf(*run) : Maps{};
}

TEST(InputMaps, AFileIsCutIntoTheJobsMapsInSimulationAndForReal) {
  testing::ScratchDir dir;
  const std::string text = Edges(5000);
  testing::WriteFile(dir / "g.txt", text);
  const WorkloadSpec spec = OneJob(Files((dir / "g.txt").string()), 6);
  for (bool sim : {true, false}) {
    const Maps m = RunMaps(spec, sim);
    EXPECT_EQ(m.count, 6u) << (sim ? "sim" : "real");
    EXPECT_EQ(m.bytes, text.size()) << (sim ? "sim" : "real");
  }
}

TEST(InputMaps, AGzipFileIsUnpackedIntoTheJobsMaps) {
  testing::ScratchDir dir;
  const std::string text = Edges(5000);
  testing::WriteGzip(dir / "g.txt.gz", text, /*members=*/2);
  for (bool sim : {true, false}) {
    const Maps m = RunMaps(OneJob(Files((dir / "g.txt.gz").string()), 4), sim);
    EXPECT_EQ(m.count, 4u) << (sim ? "sim" : "real");
    EXPECT_EQ(m.bytes, text.size()) << (sim ? "sim" : "real");  // inflated bytes
  }
  // Without maps a .gz file stays one split, as Hadoop reads it.
  EXPECT_EQ(RunMaps(OneJob(Files((dir / "g.txt.gz").string()), 0), false).count, 1u);
}

TEST(InputMaps, AGeneratedGraphIsCutIntoTheJobsMapsForReal) {
  InputSpec in;
  in.kind = InputSpec::Kind::kGenerated;
  in.generator = "graph";
  in.graph_nodes = 1000;
  in.graph_edges = 20000;
  EXPECT_EQ(RunMaps(OneJob(in, 5), /*sim=*/false).count, 5u);
  EXPECT_EQ(RunMaps(OneJob(in, 5), /*sim=*/true).count, 5u);
}

}  // namespace
}  // namespace mrlocal
