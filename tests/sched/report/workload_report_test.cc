// The files of a run's report and of a policy comparison: what metrics.json, the CSVs and
// trace.json say, one schema for one job and for a workload, stable bytes, well-formed SVG
// with escaped text, caps on big runs, and the empty workload.
#include "sched/report/workload_report.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

#include "hand_made_run.h"
#include "sched/report/bar_chart_svg.h"
#include "sched/report/gantt_svg.h"
#include "simulated_run.h"
#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using testing::HandMadeRun;
using testing::JobBuilder;
using testing::ReadFile;
using testing::ScratchDir;

// Per node a map slot of speed 1.0 and a reduce slot of 0.5, numbered node by node (not
// as ClusterSpec numbers them): slot 3 is node 1's reduce slot.
std::vector<SlotInfo> Slots(int nodes) {
  std::vector<SlotInfo> s;
  for (int n = 0; n < nodes; ++n) {
    s.push_back({static_cast<SlotId>(s.size()), SlotKind::kMap, n, 1.0});
    s.push_back({static_cast<SlotId>(s.size()), SlotKind::kReduce, n, 0.5});
  }
  return s;
}

// Three jobs on two nodes; names that need CSV quoting and XML escaping.
//   job 1 "say ""hi"", world": arrives 0, deadline 5 s, maps [0,2] on slot 0 and a
//          reduce [2,3] on slot 1, done at 3: met.
//   job 2 "<b>&co</b>": arrives 1, deadline 2 s (abs 3): map [1,2] on slot 2 preempted,
//          [2,4] on slot 2, reduce [4,6] on slot 3, done at 6: missed.
//   job 3 "plain": rejected at 2.
RunRecorder BuildRun(RunRecorderOptions options = {}) {
  HandMadeRun run(options);
  run.input_bytes = 64;
  run.output_bytes = 8;
  auto job = [&](JobId id, int arrival, int deadline, const std::string& name, bool admit) {
    run.Arrive(id, arrival,
               JobBuilder().Name(name).Queue("q,1").Deadline(seconds(deadline)).Maps(1).Build(),
               admit ? Admission::Yes("admitted") : Admission::No("would miss"));
  };
  job(1, 0, 5, "say \"hi\", world", true);
  job(2, 1, 2, "<b>&co</b>", true);
  run.Attempt({1, TaskKind::kMap, 0}, 0, 0, 2);
  run.Attempt({2, TaskKind::kMap, 0}, 2, 1, 2, Status::Aborted("preempted"));
  job(3, 2, 1, "plain", false);
  run.Attempt({2, TaskKind::kMap, 0}, 2, 2, 4);
  run.Attempt({1, TaskKind::kReduce, 0}, 1, 2, 3);
  run.Finish(1, JobPhase::kDone, 3);
  run.Attempt({2, TaskKind::kReduce, 0}, 3, 4, 6);
  run.Finish(2, JobPhase::kDone, 6);
  return std::move(run.rec);
}

WorkloadMetrics Metrics(const RunRecorder& rec, const std::string& policy = "rtmr") {
  MetricsContext c;
  c.policy = policy;
  c.sim = true;
  c.total_slots = 4;
  return ComputeMetrics(rec, c);
}

// Tags balance (every opened element is closed, in order), no stray '<' or '&' in text.
::testing::AssertionResult WellFormed(const std::string& xml) {
  std::vector<std::string> open;
  for (size_t i = 0; i < xml.size(); ++i) {
    if (xml[i] == '&') {
      size_t semi = xml.find(';', i);
      std::string ent = xml.substr(i, semi == std::string::npos ? 8 : semi - i + 1);
      if (ent != "&amp;" && ent != "&lt;" && ent != "&gt;" && ent != "&quot;" && ent != "&apos;" &&
          ent.rfind("&#", 0) != 0)
        return ::testing::AssertionFailure() << "bad entity at " << i << ": " << ent;
      continue;
    }
    if (xml[i] != '<') continue;
    size_t end = xml.find('>', i);
    if (end == std::string::npos) return ::testing::AssertionFailure() << "unclosed tag at " << i;
    std::string tag = xml.substr(i + 1, end - i - 1);
    if (tag.find('<') != std::string::npos)
      return ::testing::AssertionFailure() << "'<' inside a tag at " << i;
    if (tag[0] == '/') {
      std::string name = tag.substr(1);
      if (open.empty() || open.back() != name)
        return ::testing::AssertionFailure() << "unbalanced </" << name << "> at " << i;
      open.pop_back();
    } else if (tag.back() != '/') {
      open.push_back(tag.substr(0, tag.find_first_of(" \n")));
    }
    i = end;
  }
  if (!open.empty()) return ::testing::AssertionFailure() << "<" << open.back() << "> not closed";
  return ::testing::AssertionSuccess();
}

size_t Count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

TEST(ReportCsv, QuotesFieldsAsRfc4180) {
  EXPECT_EQ(CsvField("plain"), "plain");
  EXPECT_EQ(CsvField("a,b"), "\"a,b\"");
  EXPECT_EQ(CsvField("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(CsvField("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(CsvField(""), "");
}

TEST(ReportCsv, JobsCsvHasOneRowPerJob) {
  RunRecorder rec = BuildRun();
  const std::string csv = JobsCsv(ComputeJobMetrics(rec));
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "id,name,app,queue,weight,arrival_s,deadline_s,admitted,status,start_s,finish_s,"
            "response_s,met_deadline,slack_s,maps,reduces,slot_time_s,goal_s,met_goal,utility");
  EXPECT_EQ(Count(csv, "\n"), 4u);
  EXPECT_NE(csv.find("1,\"say \"\"hi\"\", world\",synthetic,\"q,1\",1.000000,0.000000,5.000000,"
                     "true,succeeded,0.000000,3.000000,3.000000,true,2.000000,1,1,3.000000,,,\n"),
            std::string::npos)
      << csv;
  // Job 2: deadline 1 + 2 = 3, finished at 6: missed by 3 s; slot time 1 + 2 + 2.
  EXPECT_NE(csv.find("2,<b>&co</b>,synthetic,\"q,1\",1.000000,1.000000,3.000000,true,succeeded,"
                     "1.000000,6.000000,5.000000,false,-3.000000,1,1,5.000000,,,\n"),
            std::string::npos)
      << csv;
  // The rejected job: no start, finish, response or verdict.
  EXPECT_NE(csv.find("3,plain,synthetic,\"q,1\",1.000000,2.000000,3.000000,false,rejected,,,,,,"
                     "1,1,0.000000,,,\n"),
            std::string::npos)
      << csv;
}

TEST(ReportCsv, TasksCsvHasOneRowPerAttempt) {
  RunRecorder rec = BuildRun();
  const std::string csv = TasksCsv(rec, Slots(2));
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "job,kind,index,attempt,slot,node,start_s,end_s,duration_s,ok,preempted,input_bytes,"
            "output_bytes");
  EXPECT_EQ(Count(csv, "\n"), 6u);
  EXPECT_NE(csv.find("2,map,0,1,2,1,1.000000,2.000000,1.000000,false,true,64,8\n"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find("2,map,0,2,2,1,2.000000,4.000000,2.000000,true,false,64,8\n"),
            std::string::npos)
      << csv;
}

TEST(ReportFiles, WritesEveryFileAndTheyAreByteIdenticalForEqualInputs) {
  ScratchDir dir;
  std::vector<std::string> files = {"metrics.json", "jobs.csv", "tasks.csv", "trace.json",
                                    "gantt.svg"};
  for (const char* sub : {"a", "b"}) {
    RunRecorder rec = BuildRun();
    ASSERT_TRUE(
        WriteWorkloadReport(dir / sub, Metrics(rec), ComputeJobMetrics(rec), rec, Slots(2)).ok());
  }
  for (const std::string& f : files) {
    ASSERT_TRUE(std::filesystem::exists(dir / "a" / f)) << f;
    EXPECT_EQ(ReadFile(dir / "a" / f), ReadFile(dir / "b" / f)) << f;
  }
  // Nothing else, in particular no temporary left behind.
  size_t entries = 0;
  for (auto& e : std::filesystem::directory_iterator(dir / "a")) {
    (void)e;
    ++entries;
  }
  EXPECT_EQ(entries, files.size());
}

TEST(ReportFiles, MetricsJsonHasStableKeysInOrder) {
  RunRecorder rec = BuildRun();
  const std::string json = MetricsJson(Metrics(rec), ComputeJobMetrics(rec));
  size_t last = 0;
  for (const char* key :
       {"\"policy\"",          "\"sim\"",           "\"jobs\"",        "\"accepted\"",
        "\"accept_ratio\"",    "\"success_ratio\"", "\"utilization\"", "\"utilization_successful\"",
        "\"utilization_all\"", "\"miss_ratio\"",    "\"twjct\"",       "\"twjct_abs\"",
        "\"latency_s\"",       "\"p50\"",           "\"p95\"",         "\"p99\"",
        "\"makespan_s\"",      "\"scheduler\"",     "\"decisions\"",   "\"decision_latency_us\""}) {
    size_t at = json.find(key, last);
    ASSERT_NE(at, std::string::npos) << key << " after offset " << last << " in\n" << json;
    last = at;
  }
  // 3 jobs, 2 accepted: 2/3; job 1 met, job 2 missed: success 1/2.
  EXPECT_NE(json.find("\"accept_ratio\": 0.6666666666666666"), std::string::npos) << json;
  EXPECT_NE(json.find("\"success_ratio\": 0.5"), std::string::npos) << json;
}

TEST(ReportFiles, MetricsJsonHasEachJobsFigures) {
  RunRecorder rec = BuildRun();
  const auto json = nlohmann::json::parse(MetricsJson(Metrics(rec), ComputeJobMetrics(rec)));
  const auto& jobs = json.at("per_job");
  ASSERT_EQ(jobs.size(), 3u);
  // Job 2: arrives 1 with a 2 s deadline (3 s on the run's clock), done at 6: missed by 3 s.
  const auto& missed = jobs[1];
  EXPECT_EQ(missed.at("name"), "<b>&co</b>");
  EXPECT_EQ(missed.at("status"), "succeeded");
  EXPECT_EQ(missed.at("deadline_s"), 2.0);
  EXPECT_EQ(missed.at("deadline_at_s"), 3.0);
  EXPECT_EQ(missed.at("elapsed_s"), 5.0);
  EXPECT_EQ(missed.at("met_deadline"), false);
  EXPECT_EQ(missed.at("successful"), false);
  EXPECT_EQ(missed.at("slack_s"), -3.0);
  EXPECT_EQ(missed.at("attempts"), 3);
  EXPECT_EQ(missed.at("preempted_attempts"), 1);
  EXPECT_EQ(missed.at("slot_time_s"), 5.0);
  // Job 3 was rejected: it never ran, so it has no end and no verdict.
  const auto& rejected = jobs[2];
  EXPECT_EQ(rejected.at("status"), "rejected");
  EXPECT_EQ(rejected.at("admitted"), false);
  EXPECT_EQ(rejected.at("admission"), "would miss");
  EXPECT_TRUE(rejected.at("finish_s").is_null());
  EXPECT_TRUE(rejected.at("met_deadline").is_null());
  EXPECT_EQ(rejected.at("elapsed_s"), 0.0);
}

// A single job is a workload of one job: metrics.json has the same keys, in the same order,
// at the top and in each per_job entry.
TEST(ReportFiles, OneJobAndAWorkloadHaveTheSameMetricsSchema) {
  auto keys = [](const nlohmann::ordered_json& o) {
    std::vector<std::string> k;
    for (auto it = o.begin(); it != o.end(); ++it) k.push_back(it.key());
    return k;
  };
  std::vector<nlohmann::ordered_json> runs;
  for (int jobs : {1, 3}) {
    RunRecorder rec;
    const testing::SimulatedRun run = testing::Simulate(rec, jobs, std::chrono::seconds(4));
    MetricsContext c;
    c.policy = "fifo";
    c.sim = true;
    c.total_slots = static_cast<int>(run.slots.size());
    c.scheduler = &run.stats;
    runs.push_back(
        nlohmann::ordered_json::parse(MetricsJson(ComputeMetrics(rec, c), ComputeJobMetrics(rec))));
    ASSERT_EQ(runs.back().at("jobs"), jobs);
    ASSERT_EQ(runs.back().at("per_job").size(), static_cast<size_t>(jobs));
  }
  const auto& one = runs[0];
  const auto& three = runs[1];
  EXPECT_EQ(keys(one), keys(three));
  EXPECT_EQ(keys(one.at("per_job")[0]), keys(three.at("per_job")[2]));
  EXPECT_EQ(keys(one.at("scheduler")), keys(three.at("scheduler")));
  // Fifo runs them one after another: the first meets its 4 s deadline (done at 3 s), the
  // last does not (its maps start at 2 s).
  EXPECT_EQ(three.at("per_job")[0].at("met_deadline"), true);
  EXPECT_EQ(three.at("per_job")[2].at("met_deadline"), false);
  EXPECT_EQ(three.at("missed"), 1);
}

TEST(ReportCsv, EveryRowHasTheHeadersColumns) {
  RunRecorder rec;
  const testing::SimulatedRun run = testing::Simulate(rec, 2, std::nullopt);
  auto columns = [](const std::string& line) {
    size_t n = 1;
    bool quoted = false;
    for (char c : line) {
      if (c == '"') quoted = !quoted;
      if (c == ',' && !quoted) ++n;
    }
    return n;
  };
  for (const std::string& csv : {JobsCsv(ComputeJobMetrics(rec)), TasksCsv(rec, run.slots)}) {
    std::istringstream lines(csv);
    std::string header, line;
    std::getline(lines, header);
    size_t rows = 0;
    while (std::getline(lines, line)) {
      EXPECT_EQ(columns(line), columns(header)) << line;
      ++rows;
    }
    EXPECT_GT(rows, 0u) << header;
  }
  // Without a deadline: no deadline, slack or absolute deadline cells; success all the same.
  EXPECT_NE(JobsCsv(ComputeJobMetrics(rec)).find(",0.000000,,true,succeeded,"), std::string::npos);
}

TEST(ReportFiles, EmptyWorkloadWritesZerosAndNoNaN) {
  ScratchDir dir;
  RunRecorder rec;
  WorkloadMetrics m = Metrics(rec);
  ASSERT_TRUE(WriteWorkloadReport(dir / "r", m, {}, rec, {}).ok());
  const std::string json = ReadFile(dir / "r" / "metrics.json");
  EXPECT_EQ(json.find("null"), std::string::npos) << json;
  EXPECT_EQ(json.find("nan"), std::string::npos) << json;
  EXPECT_NE(json.find("\"accept_ratio\": 0"), std::string::npos) << json;
  EXPECT_EQ(Count(ReadFile(dir / "r" / "jobs.csv"), "\n"), 1u);
  EXPECT_TRUE(WellFormed(ReadFile(dir / "r" / "gantt.svg")));
}

TEST(ReportFiles, FailsCleanlyWhenTheDirectoryCannotBeCreated) {
  ScratchDir dir;
  testing::WriteFile(dir / "file", "x");
  RunRecorder rec;
  Status s = WriteWorkloadReport(dir / "file" / "sub", Metrics(rec), {}, rec, {});
  EXPECT_FALSE(s.ok());
}

TEST(GanttSvg, IsWellFormedWithEscapedNamesAndMarks) {
  RunRecorder rec = BuildRun();
  const std::string svg = GanttSvg(rec, Slots(2));
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_TRUE(WellFormed(svg));
  EXPECT_EQ(svg.find("<b>&co"), std::string::npos);  // raw name never appears
  EXPECT_NE(svg.find("&lt;b&gt;&amp;co&lt;/b&gt;"), std::string::npos);
  EXPECT_NE(svg.find("node 0 map slot 0"), std::string::npos);
  EXPECT_NE(svg.find("node 1 reduce slot 3"), std::string::npos);
  EXPECT_NE(svg.find("time (s)"), std::string::npos);
  EXPECT_NE(svg.find("legend"), std::string::npos);
  // Job 2 missed: its 3 attempts have the red outline class; its preempted one is dashed.
  EXPECT_EQ(Count(svg, "class=\"p m\""), 1u);
  EXPECT_EQ(Count(svg, ", job missed its deadline</title>"), 3u);
  // Three deadline ticks (job 3's too: rejected).
  EXPECT_EQ(Count(svg, "<title>deadline of "), 3u);
  EXPECT_NE(svg.find("3 s, missed"), std::string::npos);
  EXPECT_EQ(svg.find("not drawn"), std::string::npos);
}

TEST(GanttSvg, CapsSlotsAndBarsAndSaysWhat) {
  RunRecorder rec;
  rec.OnAdmission(testing::ArrivingJob(JobBuilder().Name("big").Maps(100).Build()),
                  Admission::Yes(""), Time{0});
  for (uint32_t i = 0; i < 100; ++i) {
    TaskReport r;
    r.task = {1, TaskKind::kMap, i};
    r.slot = static_cast<SlotId>(i % 10);
    r.start = milliseconds(100 * i);
    r.end = milliseconds(100 * i + 90);
    rec.OnTaskReport(r);
  }
  std::vector<SlotInfo> slots;
  for (int i = 0; i < 10; ++i) slots.push_back({i, SlotKind::kMap, i, 1.0});
  GanttOptions o;
  o.max_slots = 4;
  o.max_bars = 7;
  const std::string svg = GanttSvg(rec, slots, o);
  EXPECT_TRUE(WellFormed(svg));
  EXPECT_EQ(Count(svg, " attempt 1, "), 7u);  // bar titles
  EXPECT_NE(svg.find("6 slots after the first 4 with their 60 attempts"), std::string::npos)
      << svg.substr(0, 600);
  // 40 attempts on the 4 drawn slots (tasks 0-3, 10-13, ...), the 7 earliest drawn; the
  // 8th, task 13, starts at 1.3 s, where the time axis ends.
  EXPECT_NE(svg.find("33 attempts starting at or after 1.3 s"), std::string::npos)
      << svg.substr(0, 600);
}

TEST(GanttSvg, JobColorsAreStableAndDistinct) {
  EXPECT_EQ(JobColor(7), JobColor(7));
  EXPECT_EQ(JobColor(7).size(), 7u);
  EXPECT_EQ(JobColor(7)[0], '#');
  for (JobId id = 1; id < 50; ++id) EXPECT_NE(JobColor(id), JobColor(id + 1));
}

TEST(GanttSvg, WithoutAttemptsSaysSo) {
  RunRecorder rec = BuildRun({.keep_attempts = false});
  const std::string svg = GanttSvg(rec, Slots(2));
  EXPECT_TRUE(WellFormed(svg));
  EXPECT_NE(svg.find("task attempts were not recorded"), std::string::npos);
}

TEST(BarChartSvg, DrawsBarsWhiskersLabelsAndValues) {
  BarChart c;
  c.title = "accept ratio";
  c.y_label = "accept ratio";
  c.percent = true;
  c.value_decimals = 1;
  c.bars = {{"rtmr", 0.5, 0.4, 0.6}, {"a<b", 0.25, std::nullopt, std::nullopt}};
  const std::string svg = BarChartSvg(c);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_TRUE(WellFormed(svg));
  EXPECT_NE(svg.find(">50.0%</text>"), std::string::npos);
  EXPECT_NE(svg.find(">25.0%</text>"), std::string::npos);
  EXPECT_NE(svg.find("(min 40.0%, max 60.0%)"), std::string::npos);
  EXPECT_NE(svg.find("a&lt;b"), std::string::npos);
  EXPECT_NE(svg.find(">policy</text>"), std::string::npos);
  EXPECT_EQ(svg, BarChartSvg(c));
}

// The x of the <text> whose content is `label`.
double LabelX(const std::string& svg, const std::string& label) {
  const size_t text = svg.rfind("<text x=\"", svg.find(">" + label + "</text>"));
  return std::stod(svg.substr(text + 9));
}

// Long labels (compare's variants, "rtmr:estimate-margin=4") get slots as wide as they are.
TEST(BarChartSvg, LongLabelsDoNotOverlap) {
  BarChart c;
  c.title = "accept ratio";
  const std::string a = "rtmr:estimate-margin=1:feedback-threshold=2s";
  const std::string b = "rtmr:estimate-margin=4:feedback-threshold=2s";
  c.bars = {{a, 0.5, std::nullopt, std::nullopt}, {b, 0.25, std::nullopt, std::nullopt}};
  const std::string svg = BarChartSvg(c);
  EXPECT_TRUE(WellFormed(svg));
  EXPECT_GE(LabelX(svg, b) - LabelX(svg, a), 7.0 * static_cast<double>(a.size())) << svg;
}

TEST(BarChartSvg, EmptyAndZeroChartsAreWellFormed) {
  BarChart c;
  c.title = "nothing";
  EXPECT_TRUE(WellFormed(BarChartSvg(c)));
  c.bars = {{"x", 0, std::nullopt, std::nullopt}, {"nan", NAN, std::nullopt, std::nullopt}};
  const std::string svg = BarChartSvg(c);
  EXPECT_TRUE(WellFormed(svg));
  EXPECT_EQ(Count(svg, "nan"), 2u);  // the label and its hover title, never a number
  EXPECT_NE(svg.find("<title>nan: 0.000</title>"), std::string::npos);
}

TEST(BarChartSvg, HelpersFormatEscapeAndTick) {
  EXPECT_EQ(SvgNumber(12.5), "12.5");
  EXPECT_EQ(SvgNumber(3.0), "3");
  EXPECT_EQ(SvgNumber(-0.0001), "0");
  EXPECT_EQ(SvgNumber(NAN), "0");
  EXPECT_EQ(XmlEscape("a<&>\"'\x01"), "a&lt;&amp;&gt;&quot;&apos;?");
  EXPECT_EQ(NiceTicks(0, 10, 5), (std::vector<double>{0, 2, 4, 6, 8, 10}));
  EXPECT_EQ(NiceTicks(0, 0.9, 3), (std::vector<double>{0, 0.5, 1}));
}

WorkloadMetrics Seed(double accept, double p95) {
  WorkloadMetrics m;
  m.jobs = 10;
  m.accept_ratio = accept;
  m.latency_s.p95 = p95;
  return m;
}

TEST(ReportComparison, MarkdownHasMeanAndMinMaxAcrossSeeds) {
  std::vector<ComparisonRow> rows = {{"rtmr", {Seed(0.5, 10), Seed(0.7, 20)}},
                                     {"fifo", {Seed(1.0, 30), Seed(1.0, 50)}}};
  const std::string md = ComparisonMarkdown(rows);
  EXPECT_EQ(md.rfind("| policy | seeds | jobs | accept ratio |", 0), 0u) << md;
  EXPECT_NE(md.find("| rtmr | 2 | 10 | 60.0% (50.0%–70.0%) |"), std::string::npos) << md;
  EXPECT_NE(md.find("| fifo | 2 | 10 | 100.0% (100.0%–100.0%) |"), std::string::npos) << md;
  EXPECT_NE(md.find("15.000 (10.000–20.000)"), std::string::npos) << md;
  const std::string csv = ComparisonCsv(rows);
  EXPECT_EQ(csv.rfind("policy,seeds,accept_ratio_mean,accept_ratio_min,accept_ratio_max,", 0), 0u);
  EXPECT_NE(csv.find("rtmr,2,0.600000,0.500000,0.700000,"), std::string::npos) << csv;
}

TEST(ReportComparison, OneSeedShowsNoRange) {
  const std::string md = ComparisonMarkdown({{"a|b", {Seed(0.25, 1)}}});
  EXPECT_NE(md.find("| a\\|b | 1 | 10 | 25.0% |"), std::string::npos) << md;
}

TEST(ReportComparison, WritesTableCsvAndOneChartPerMetric) {
  ScratchDir dir;
  std::vector<ComparisonRow> rows = {{"rtmr", {Seed(0.5, 10), Seed(0.7, 20)}},
                                     {"fifo", {Seed(1.0, 30)}}};
  ASSERT_TRUE(WriteComparisonReport(dir / "cmp", rows).ok());
  for (const char* f :
       {"comparison.md", "comparison.csv", "accept_ratio.svg", "success_ratio.svg",
        "utilization.svg", "miss_ratio.svg", "twjct.svg", "latency_p95.svg", "makespan.svg"}) {
    ASSERT_TRUE(std::filesystem::exists(dir / "cmp" / f)) << f;
  }
  const std::string svg = ReadFile(dir / "cmp" / "latency_p95.svg");
  EXPECT_TRUE(WellFormed(svg));
  EXPECT_NE(svg.find(">rtmr</text>"), std::string::npos);
  EXPECT_NE(svg.find("(min 10.000, max 20.000)"), std::string::npos);
  EXPECT_NE(svg.find(">15.000</text>"), std::string::npos);
}

}  // namespace
}  // namespace mrlocal
