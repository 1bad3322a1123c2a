// DynamicShare's Fig. 4 on the real engine: how close the kNN estimator's task times come
// to the actual ones as runs accumulate. With a fresh history file, it runs a WordCount job
// and a friend-count job N times each, sizes drawn anew each run, on a throttled
// heterogeneous cluster, as `mrlocal wordcount|friendcount --policy rtmr --estimator knn`
// does (JobRun: probe on a first run, the history file read before and recorded after each
// job). For every task it records the estimate at its launch, asked exactly as a policy asks
// (Estimator::TaskSeconds with FeaturesOnSlot, on the run's estimator), and its actual time.
//
// The sizes are the paper's kind of task, which takes seconds (its Twitter maps read
// 100,000 tweets), on fixed datasets as the paper's: WordCount on 32-128 MiB of generated
// text (a new seed each run) in splits of 16-32 MiB (0.08-0.15 s each at speed 1 here),
// friend-count on the first 50-100 % of a generated 16 MiB graph with soc-Slashdot0902's
// skew (the same graph every run; soc-Slashdot0902 itself is 11 MB, and its 3 MiB splits
// take 45 ms) in splits of 2.5-4 MiB (0.1-0.2 s at speed 1). A run's input is cut into
// equal splits (the block size is the input over a split count drawn so that each split is
// in range), so no short last split runs in a few ms, where timer resolution, thread
// wake-up and a fixed cost of a few ms are most of the time. --small runs that case: 8-32
// MiB of text in 8 MiB splits, the first 10-40 % of soc-Slashdot0902 (or --graph) in 1 MiB
// splits (tasks of 10-150 ms). 2 x 100 runs take 3-5 minutes on 2 cores.
//
// It prints the mean (MAPE) and the median absolute percentage error of run 1, 5, 20 and N
// (and of the five runs up to each) per app and kind; --csv gets every task, --chart the
// mean and quartiles of estimated / actual per run, app and kind, for tools/bench/plot_csv.
//
//   bench_knn_accuracy [--runs N] [--csv FILE] [--chart FILE] [--cluster SPEC]
//                      [--graph FILE] [--small]
//
// The inputs and the history file go to a temporary directory, removed at the end.
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "datasets/graph_generator.h"
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

// The first `fraction` of `lines`, as `out`.
void WriteGraphPiece(const std::vector<std::string>& lines, double fraction, const fs::path& out) {
  std::ofstream o(out);
  for (size_t i = 0; i < static_cast<size_t>(fraction * static_cast<double>(lines.size())); ++i)
    o << lines[i] << "\n";
}

using Range = std::pair<double, double>;

// The runs' inputs: each drawn uniformly from its range, anew each run.
struct Sizes {
  Range text_mib, text_split_mib;         // WordCount's
  Range graph_fraction, graph_split_mib;  // friend-count's: the graph's first lines
};
constexpr Sizes kSecondTasks{{32, 128}, {16, 32}, {0.5, 1.0}, {2.5, 4}};
constexpr Sizes kSmallTasks{{8, 32}, {8, 8}, {0.1, 0.4}, {1, 1}};

double Draw(Range r, std::mt19937_64& rng) {
  return std::uniform_real_distribution<double>(r.first, r.second)(rng);
}

// The block size that cuts `bytes` into equal splits of `mib`: the split count is drawn
// from those that fit (the fewest when none does).
uint64_t EqualSplits(uint64_t bytes, Range mib, std::mt19937_64& rng) {
  const double in_mib = static_cast<double>(bytes) / (1 << 20);
  const auto fewest = std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(in_mib / mib.second)));
  const auto most = std::max(fewest, static_cast<uint64_t>(in_mib / mib.first));
  const uint64_t splits = std::uniform_int_distribution<uint64_t>(fewest, most)(rng);
  return (bytes + splits - 1) / splits;
}

// The absolute percentage errors of the rows `keep` selects.
template <typename Keep>
std::vector<double> Apes(const std::vector<Row>& rows, Keep keep) {
  std::vector<double> apes;
  for (const Row& r : rows)
    if (keep(r) && r.actual > 0) apes.push_back(100 * std::abs(r.estimated - r.actual) / r.actual);
  return apes;
}

double Mean(const std::vector<double>& v) {
  return v.empty() ? NAN : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

// The q-quantile (0..1) of `v`, the nearest rank; NaN for none.
double Quantile(std::vector<double> v, double q) {
  if (v.empty()) return NAN;
  const auto at =
      v.begin() + static_cast<ptrdiff_t>(std::lround(q * static_cast<double>(v.size() - 1)));
  std::nth_element(v.begin(), at, v.end());
  return *at;
}

constexpr std::array<const char*, 2> kApps = {"wordcount", "friendcount"};
const char* KindName(TaskKind kind) { return kind == TaskKind::kMap ? "map" : "reduce"; }

// One table of `statistic` over the APEs of run k and of runs k-4..k, k in `points`.
template <typename Statistic>
void PrintTable(const char* title, const std::vector<Row>& rows, const std::vector<int>& points,
                Statistic statistic) {
  std::printf("%s\n%-12s %-7s", title, "app", "kind");
  for (int p : points)
    std::printf(" %8s %11s", ("run " + std::to_string(p)).c_str(), "runs k-4..k");
  std::printf("\n");
  for (const char* app : kApps)
    for (TaskKind kind : {TaskKind::kMap, TaskKind::kReduce}) {
      std::printf("%-12s %-7s", app, KindName(kind));
      for (int p : points) {
        auto of = [&](int from, int to) {
          return statistic(Apes(rows, [&](const Row& r) {
            return r.app == app && r.kind == kind && r.run >= from && r.run <= to;
          }));
        };
        std::printf(" %8.1f %11.1f", of(p, p), of(std::max(1, p - 4), p));
      }
      std::printf("\n");
    }
}

void PrintTables(const std::vector<Row>& rows, int runs) {
  std::vector<int> points;
  for (int p : {1, 5, 20, 100})
    if (p <= runs) points.push_back(p);
  if (points.empty() || points.back() != runs) points.push_back(runs);
  std::printf(
      "Absolute percentage error of the estimate at launch, %% (run k: its tasks, after k-1\n"
      "previous runs; runs k-4..k: the five runs up to k)\n");
  PrintTable("Mean (MAPE):", rows, points, Mean);
  PrintTable("Median:", rows, points,
             [](std::vector<double> v) { return Quantile(std::move(v), 0.5); });
}

void WriteTasks(const std::vector<Row>& rows, const std::string& csv) {
  std::ofstream out(csv);
  out << "run,app,kind,estimated_s,actual_s,units,slot_speed,node_tasks\n";
  for (const Row& r : rows)
    out << r.run << "," << r.app << "," << KindName(r.kind) << "," << r.estimated << "," << r.actual
        << "," << r.features.units << "," << r.features.slot_speed << "," << r.features.node_tasks
        << "\n";
}

// plot_csv's series,x,y,ymin,ymax: per app and kind, the mean of estimated / actual of each
// run and its quartiles.
void WriteChart(const std::vector<Row>& rows, int runs, const std::string& csv) {
  std::ofstream out(csv);
  out << "series,x,y,ymin,ymax\n";
  for (const char* app : kApps)
    for (TaskKind kind : {TaskKind::kMap, TaskKind::kReduce})
      for (int run = 1; run <= runs; ++run) {
        std::vector<double> ratios;
        for (const Row& r : rows)
          if (r.app == app && r.kind == kind && r.run == run && r.actual > 0)
            ratios.push_back(r.estimated / r.actual);
        if (ratios.empty()) continue;
        out << app << " " << KindName(kind) << "s," << run << "," << Mean(ratios) << ","
            << Quantile(ratios, 0.25) << "," << Quantile(ratios, 0.75) << "\n";
      }
}

struct Options {
  int runs = 100;
  std::string csv = "knn_accuracy.csv", chart;
  std::string cluster = "1x(1m,1r,1.0)+1x(1m,1r,0.5)";
  std::string graph;  // none: generated (GraphLines)
  Sizes sizes = kSecondTasks;
};

constexpr char kUsage[] =
    "usage: bench_knn_accuracy [--runs N] [--csv FILE] [--chart FILE] [--cluster SPEC]\n"
    "                          [--graph FILE] [--small]\n"
    "DynamicShare's Fig. 4: N WordCount and N friend-count jobs under rtmr --estimator knn\n"
    "from a fresh history; the error of each task's estimate at launch against its time.\n"
    "  --runs N       jobs of each app (default 100)\n"
    "  --csv FILE     every task's estimate, time and features (default knn_accuracy.csv)\n"
    "  --chart FILE   per run, app and kind: mean and quartiles of estimated / actual, for\n"
    "                 plot_csv (default: none)\n"
    "  --cluster SPEC the cluster (default 1x(1m,1r,1.0)+1x(1m,1r,0.5))\n"
    "  --graph FILE   friend-count on the first 50-100 % of FILE's lines (gzip or not), not\n"
    "                 on a generated graph\n"
    "  --small        tasks of 10-150 ms, not 0.1-0.3 s: 8-32 MiB of text in 8 MiB splits,\n"
    "                 the first 10-40 % of --graph (default soc-Slashdot0902) in 1 MiB splits\n";

// The options, or the exit code: 0 after --help, 2 for bad ones (one line on stderr).
std::variant<Options, int> ParseOptions(int argc, char** argv) {
  Options o;
  bool small = false;
  auto bad = [](const std::string& what) {
    std::cerr << "bench_knn_accuracy: " << what << "\n";
    return 2;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--help" || flag == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (flag == "--small") {
      small = true;
      o.sizes = kSmallTasks;
      continue;
    }
    std::string* text = flag == "--csv"       ? &o.csv
                        : flag == "--chart"   ? &o.chart
                        : flag == "--cluster" ? &o.cluster
                        : flag == "--graph"   ? &o.graph
                                              : nullptr;
    if (!text && flag != "--runs") return bad("unknown option " + flag + " (--help lists them)");
    if (i + 1 == argc) return bad(flag + " needs a value");
    const std::string value = argv[++i];
    if (text) {
      *text = value;
      continue;
    }
    const char* end = value.data() + value.size();
    if (std::from_chars(value.data(), end, o.runs).ptr != end || o.runs < 1)
      return bad("--runs: '" + value + "' is not a positive integer");
  }
  if (small && o.graph.empty())
    o.graph = std::string(MRLOCAL_SHARED_DATASETS) + "/graphs/soc-Slashdot0902.txt.gz";
  return o;
}

// The lines of the graph friend-count reads from: `file`'s, or without one a generated
// 16 MiB graph with soc-Slashdot0902's skew (a fixed dataset, as the paper's). Empty when
// the file cannot be read.
std::vector<std::string> GraphLines(const std::string& file) {
  if (!file.empty()) return ReadLines(file);
  GraphOptions g;
  const GraphSize size = GraphForBytes(16 << 20);
  g.nodes = size.nodes;
  g.edges = size.edges;
  g.skew = 208;
  auto graph = GenerateGraph(g);
  std::vector<std::string> lines;
  std::istringstream in(graph.ok() ? *graph : "");
  for (std::string line; std::getline(in, line);) lines.push_back(std::move(line));
  return lines;
}

int Main(int argc, char** argv) {
  auto parsed = ParseOptions(argc, argv);
  if (const int* code = std::get_if<int>(&parsed)) return *code;
  const Options& o = std::get<Options>(parsed);
  auto cluster = ClusterSpec::Parse(o.cluster);
  if (!cluster.ok()) {
    std::cerr << "bench_knn_accuracy: " << cluster.status().message() << "\n";
    return 2;
  }
  const std::vector<std::string> graph_lines = GraphLines(o.graph);
  if (graph_lines.empty()) {
    std::cerr << "bench_knn_accuracy: --graph: cannot read " << o.graph << " (or it is empty)\n";
    return 2;
  }
  const fs::path dir = fs::temp_directory_path() / ("bench_knn_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path history = dir / "history.json";
  const JobApp wordcount = WordCountApp(), friendcount = FriendCountApp();
  std::mt19937_64 rng(4);
  std::vector<Row> rows;
  for (int run = 1; run <= o.runs; ++run) {
    TextOptions t;
    t.bytes = static_cast<uint64_t>(Draw(o.sizes.text_mib, rng) * (1 << 20));
    t.seed = static_cast<uint64_t>(run);
    const fs::path text = dir / "text.txt";
    std::ofstream(text) << GenerateText(t);
    Status st = RunOnce(wordcount, text.string(), EqualSplits(t.bytes, o.sizes.text_split_mib, rng),
                        *cluster, history, RowOf(run, "wordcount"), rows);
    const fs::path graph = dir / "graph.txt";
    WriteGraphPiece(graph_lines, Draw(o.sizes.graph_fraction, rng), graph);
    if (st.ok())
      st = RunOnce(friendcount, graph.string(),
                   EqualSplits(fs::file_size(graph), o.sizes.graph_split_mib, rng), *cluster,
                   history, RowOf(run, "friendcount"), rows);
    if (!st.ok()) {
      std::cerr << "bench_knn_accuracy: run " << run << ": " << st.message() << "\n";
      fs::remove_all(dir);
      return 1;
    }
    if (run % 10 == 0) std::cerr << "bench_knn_accuracy: " << run << " runs\n";
  }
  fs::remove_all(dir);
  WriteTasks(rows, o.csv);
  if (!o.chart.empty()) WriteChart(rows, o.runs, o.chart);
  PrintTables(rows, o.runs);
  std::printf("(%zu tasks; every estimate and actual time in %s)\n", rows.size(), o.csv.c_str());
  return 0;
}

}  // namespace
}  // namespace mrlocal

int main(int argc, char** argv) { return mrlocal::Main(argc, argv); }
