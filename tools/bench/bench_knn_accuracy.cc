// DynamicShare's Fig. 4 on the real engine: how close the kNN estimator's task times come
// to the actual ones as runs accumulate. With a fresh history file, it runs a WordCount
// job (8-32 MiB of generated text, 8 MiB splits) and a friend-count job (the first 10-40 %
// of soc-Slashdot0902's lines, 1.1-4.4 MB, 1 MiB splits) N times each, sizes drawn anew each run,
// on a throttled heterogeneous cluster, as `mrlocal wordcount|friendcount --policy rtmr --estimator
// knn` does (JobRun: probe on a first run, the history file read before and recorded after each
// job). For every task it records the estimate at its launch, asked exactly as a policy asks
// (Estimator::TaskSeconds with FeaturesOnSlot, on the run's estimator), and its actual time; it
// prints the mean absolute percentage error (MAPE) of run 1, 5, 20 and N per app and kind, and
// writes them all as CSV for a chart.
//
//   bench_knn_accuracy [--runs N] [--csv FILE] [--cluster SPEC] [--graph FILE]
//
// The inputs and the history file go to a temporary directory, removed at the end.
#include <unistd.h>
#include <zlib.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "datasets/text_generator.h"
#include "sched/core/cluster_spec.h"
#include "sched/estimate/estimator.h"
#include "tools/runtime/history_file.h"
#include "tools/runtime/job_apps.h"
#include "tools/runtime/job_run.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;

struct Row {
  int run = 0;
  std::string app;
  TaskKind kind = TaskKind::kMap;
  double estimated = 0, actual = 0;
  TaskFeatures features;
};

Row RowOf(int run, const char* app) {
  Row row;
  row.run = run;
  row.app = app;
  return row;
}

// Each task's estimate at its launch and, once it is done, its actual time.
class LaunchEstimates final : public ControllerObserver {
 public:
  LaunchEstimates(const JobRun& run, Row row, std::vector<Row>& rows)
      : run_(run), row_(std::move(row)), rows_(rows) {}

  void OnTaskStart(const TaskLaunch& launch, Time) override {
    const ClusterState& state = run_.state();
    const JobState& job = state.job(launch.task.job);
    const TaskFeatures f = FeaturesOnSlot(job, launch.task, state.slots[launch.slot].info, state);
    const Estimator* estimator = run_.estimator();
    launched_[launch.token] = {f, estimator ? estimator->TaskSeconds(job, f) : std::nullopt};
  }
  void OnTaskReport(const TaskReport& r) override {
    auto it = launched_.find(r.token);
    if (it == launched_.end() || !r.status.ok() || !it->second.second) return;
    Row row = row_;
    row.kind = r.task.kind;
    row.features = it->second.first;
    row.estimated = *it->second.second;
    row.actual = Seconds(r.end - r.start);
    rows_.push_back(row);
  }

 private:
  const JobRun& run_;
  const Row row_;
  std::vector<Row>& rows_;
  std::map<uint64_t, std::pair<TaskFeatures, std::optional<double>>> launched_;
};

// One job as `mrlocal APP INPUT --policy rtmr --deadline 10m --estimator knn --history H`.
Status RunOnce(const JobApp& app, const std::string& input, uint64_t block_size,
               const ClusterSpec& cluster, const fs::path& history, Row row,
               std::vector<Row>& rows) {
  auto file = HistoryFile::Open(history, std::cerr, /*corrupt_is_error=*/true);
  if (!file.ok()) return file.status();
  JobRequest q;
  q.app = &app;
  q.inputs = {input};
  q.cluster = cluster;
  q.deadline = std::chrono::minutes(10);
  q.policy = "rtmr";
  q.estimator = EstimatorKind::kKnn;
  q.history = &*file;
  q.reduces = static_cast<uint32_t>(cluster.reduce_slots());
  q.partitions = 4 * q.reduces;
  q.block_size = block_size;
  auto run = JobRun::Prepare(q, {});
  if (!run.ok()) return run.status();
  LaunchEstimates estimates(**run, std::move(row), rows);
  (*run)->AddObserver(&estimates);
  if (!(*run)->Submit().admitted) return Status::Internal("the job was not admitted");
  (*run)->Run(nullptr);
  if ((*run)->job().phase != JobPhase::kDone) return Status::Internal("the job failed");
  std::ostringstream quiet;
  return (*run)->RecordHistory(quiet, std::cerr, /*quiet=*/true, /*interrupted=*/false);
}

// The lines of `graph`, gzip or not.
std::vector<std::string> ReadLines(const std::string& graph) {
  std::vector<std::string> lines;
  gzFile in = gzopen(graph.c_str(), "rb");  // reads plain files as they are
  if (!in) return lines;
  char buf[1 << 16];
  std::string line;
  while (gzgets(in, buf, sizeof buf)) {
    line += buf;
    if (line.empty() || line.back() != '\n') continue;
    line.pop_back();
    lines.push_back(std::move(line));
    line.clear();
  }
  gzclose(in);
  return lines;
}

// The first `fraction` of `lines`, as a file in `dir`.
std::string GraphPiece(const std::vector<std::string>& lines, double fraction,
                       const fs::path& dir) {
  const fs::path out = dir / "graph.txt";
  std::ofstream o(out);
  for (size_t i = 0; i < static_cast<size_t>(fraction * static_cast<double>(lines.size())); ++i)
    o << lines[i] << "\n";
  return out.string();
}

// MAPE in %, of the rows `keep` selects; NaN for none.
template <typename Keep>
double Mape(const std::vector<Row>& rows, Keep keep) {
  double sum = 0;
  int n = 0;
  for (const Row& r : rows)
    if (keep(r) && r.actual > 0) {
      sum += std::abs(r.estimated - r.actual) / r.actual;
      ++n;
    }
  return n ? 100 * sum / n : NAN;
}

void PrintTable(const std::vector<Row>& rows, int runs) {
  std::vector<int> points;
  for (int p : {1, 5, 20, 100})
    if (p <= runs) points.push_back(p);
  if (points.empty() || points.back() != runs) points.push_back(runs);
  std::printf(
      "MAPE of the estimate at launch, %% (run k: its tasks, after k-1 previous runs;\n"
      "runs k-4..k: the five runs up to k)\n");
  std::printf("%-12s %-7s", "app", "kind");
  for (int p : points)
    std::printf(" %9s %11s", ("run " + std::to_string(p)).c_str(), "runs k-4..k");
  std::printf("\n");
  for (const char* app : {"wordcount", "friendcount"})
    for (TaskKind kind : {TaskKind::kMap, TaskKind::kReduce}) {
      std::printf("%-12s %-7s", app, kind == TaskKind::kMap ? "map" : "reduce");
      for (int p : points) {
        auto of = [&](int from, int to) {
          return Mape(rows, [&](const Row& r) {
            return r.app == app && r.kind == kind && r.run >= from && r.run <= to;
          });
        };
        std::printf(" %9.1f %11.1f", of(p, p), of(std::max(1, p - 4), p));
      }
      std::printf("\n");
    }
}

int Main(int argc, char** argv) {
  int runs = 100;
  std::string csv = "knn_accuracy.csv";
  std::string cluster_spec = "1x(1m,1r,1.0)+1x(1m,1r,0.5)";
  std::string graph = std::string(MRLOCAL_SHARED_DATASETS) + "/graphs/soc-Slashdot0902.txt.gz";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--runs")
      runs = std::atoi(value.c_str());
    else if (flag == "--csv")
      csv = value;
    else if (flag == "--cluster")
      cluster_spec = value;
    else if (flag == "--graph")
      graph = value;
    else {
      std::cerr << "bench_knn_accuracy: unknown option " << flag << "\n";
      return 2;
    }
  }
  auto cluster = ClusterSpec::Parse(cluster_spec);
  const std::vector<std::string> graph_lines = ReadLines(graph);
  if (!cluster.ok() || runs < 1 || graph_lines.empty()) {
    std::cerr << "bench_knn_accuracy: bad --cluster, --runs or --graph\n";
    return 2;
  }
  const fs::path dir = fs::temp_directory_path() / ("bench_knn_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path history = dir / "history.json";
  const JobApp wordcount = WordCountApp(), friendcount = FriendCountApp();
  std::mt19937_64 rng(4);
  std::uniform_real_distribution<double> mib(8, 32), fraction(0.1, 0.4);
  std::vector<Row> rows;
  for (int run = 1; run <= runs; ++run) {
    TextOptions t;
    t.bytes = static_cast<uint64_t>(mib(rng) * (1 << 20));
    t.seed = static_cast<uint64_t>(run);
    const fs::path text = dir / "text.txt";
    std::ofstream(text) << GenerateText(t);
    Status st = RunOnce(wordcount, text.string(), 8 << 20, *cluster, history,
                        RowOf(run, "wordcount"), rows);
    if (st.ok())
      st = RunOnce(friendcount, GraphPiece(graph_lines, fraction(rng), dir), 1 << 20, *cluster,
                   history, RowOf(run, "friendcount"), rows);
    if (!st.ok()) {
      std::cerr << "bench_knn_accuracy: run " << run << ": " << st.message() << "\n";
      fs::remove_all(dir);
      return 1;
    }
    if (run % 10 == 0) std::cerr << "bench_knn_accuracy: " << run << " runs\n";
  }
  fs::remove_all(dir);
  std::ofstream out(csv);
  out << "run,app,kind,estimated_s,actual_s,units,slot_speed,node_tasks\n";
  for (const Row& r : rows)
    out << r.run << "," << r.app << "," << (r.kind == TaskKind::kMap ? "map" : "reduce") << ","
        << r.estimated << "," << r.actual << "," << r.features.units << "," << r.features.slot_speed
        << "," << r.features.node_tasks << "\n";
  PrintTable(rows, runs);
  std::printf("(%zu tasks; every estimate and actual time in %s)\n", rows.size(), csv.c_str());
  return 0;
}

}  // namespace
}  // namespace mrlocal

int main(int argc, char** argv) { return mrlocal::Main(argc, argv); }
