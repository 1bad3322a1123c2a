// Every option of every mrlocal command, walked from the CLI11 app that main() parses
// (tools/cli/mrlocal_app.h), fed edge values. Each value is either accepted, as the table
// below says for that option, or refused while parsing: exit 2, one line naming the option
// and the range its help states. An option with no row fails the test: what it accepts is
// then a decision, not an accident (a wrap, a silent default, a crash).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "tests/util/test_util.h"
#include "tools/cli/mrlocal_app.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;
using testing::RunMrlocal;
using testing::ScratchDir;

const std::vector<std::string> kEdges = {
    "", "-1", "0", "nan", "inf", "1e308", "18446744073709551616", "1 2", "a b"};

// Any name but the empty one: files, directories, paths in the block store.
const std::set<std::string> kAnyName = {"-1",  "0",  "nan", "inf", "1e308", "18446744073709551616",
                                        "1 2", "a b"};

struct Row {
  std::set<std::string> accepted;  // of kEdges
  std::string sample = "";         // a valid value, for a required option
};

// "COMMAND... OPTION" (as CLI11 names it: the long name, or the positional's) -> what it
// accepts of kEdges.
const std::map<std::string, Row>& Table() {
  static const auto* table = new std::map<std::string, Row>{
      // mrlocal serve and its clients (tools/serve).
      {"serve --listen", {kAnyName}},  // HOST:PORT, checked when it runs
      {"serve --state", {kAnyName, "state"}},
      {"serve --cluster", {}},
      {"serve --policy", {}},
      {"serve --data-root", {kAnyName}},  // a directory, checked when it runs
      {"serve --grace", {}},
      {"serve --signature-window", {}},
      {"serve --max-body", {}},
      {"serve --max-connections", {}},
      {"serve --http-threads", {}},
      {"serve --max-jobs", {}},
      {"serve --memory-limit", {}},
      {"serve --preempt", {}},
      {"serve --allocation-interval", {}},
      {"keys add NAME", {kAnyName, "k"}},
      {"keys add --role", {{}, "admin"}},
      {"keys add --queue", {kAnyName}},
      {"keys add --output", {kAnyName, "k.key"}},
      {"keys add --state", {kAnyName, "state"}},
      {"keys list --state", {kAnyName, "state"}},
      {"keys remove --state", {kAnyName, "state"}},
      {"keys remove NAME", {kAnyName, "k"}},
      {"submit --server", {kAnyName}},
      {"submit --key", {kAnyName, "k.key"}},
      {"submit APP", {kAnyName, "pi"}},
      {"submit FILE", {kAnyName}},
      {"submit --job", {kAnyName}},
      {"submit --deadline", {}},
      {"submit --goal", {}},
      {"submit --queue", {kAnyName}},
      {"submit --reduces", {{"0"}}},
      {"submit --maps", {}},
      {"submit --samples", {}},
      {"submit --generate-text", {}},
      {"status --server", {kAnyName}},
      {"status --key", {kAnyName, "k.key"}},
      {"status ID", {}},
      {"status --limit", {}},
      {"cancel --server", {kAnyName}},
      {"cancel --key", {kAnyName, "k.key"}},
      {"cancel ID", {{}, "1"}},
      {"queue --server", {kAnyName}},
      {"queue --key", {kAnyName, "k.key"}},
      {"queue show NAME", {kAnyName, "q1"}},
      {"queue create NAME", {kAnyName, "q1"}},
      {"queue create --rate", {{"0"}, "1"}},
      {"queue rate NAME", {kAnyName, "q1"}},
      {"queue rate CREDITS", {{"0"}, "1"}},
      {"queue deposit NAME", {kAnyName, "q1"}},
      {"queue deposit CREDITS", {{"0"}, "1"}},
      // wordcount and friendcount: the job options.
      {"wordcount FILE", {kAnyName}},
      {"friendcount EDGEFILE", {kAnyName, "edges.txt"}},
      {"pi NMAPS", {{}, "1"}},
      {"pi NSAMPLES", {{}, "1"}},
      {"JOB --output", {kAnyName}},
      {"JOB --deadline", {}},
      {"JOB --goal", {}},
      {"JOB --policy", {}},
      {"JOB --history", {kAnyName}},
      {"JOB --estimator", {}},
      {"JOB --cluster", {}},
      {"JOB --reduces", {}},
      {"JOB --partitions", {}},
      {"JOB --partitioner", {}},
      {"JOB --sketch-rows", {}},
      {"JOB --block-size", {}},
      {"JOB --store", {kAnyName}},
      {"JOB --report", {kAnyName}},
      {"JOB --top", {{"0"}}},
      {"JOB --lof-threshold", {}},
      {"JOB --lof-min-pts", {}},
      {"JOB --confidence", {}},
      {"JOB --fault-budget", {{"0"}}},
      {"JOB --max-attempts", {}},
      {"JOB --memory-limit", {}},
      {"JOB --inject", {}},
      {"JOB --queue", {kAnyName}},   // found in --queues when the job starts
      {"JOB --queues", {kAnyName}},  // read when the job starts
      {"JOB --preempt", {}},
      {"JOB --allocation-interval", {}},
      // workload and compare: the workload options.
      {"WORKLOAD WORKLOAD", {kAnyName}},
      {"WORKLOAD --preset", {}},
      {"WORKLOAD --availability-as", {}},
      {"WORKLOAD --cluster", {}},
      {"WORKLOAD --seed", {{"0"}}},
      {"WORKLOAD --time-scale", {}},
      {"WORKLOAD --report", {kAnyName}},
      {"WORKLOAD --block-size", {}},
      {"WORKLOAD --trace-app", {kAnyName}},
      {"WORKLOAD --limit", {}},
      {"WORKLOAD --jobs", {}},
      {"WORKLOAD --concurrency", {}},
      {"WORKLOAD --param", {kAnyName}},  // checked against the preset when it runs
      {"WORKLOAD --calibration", {kAnyName}},
      {"WORKLOAD --noise", {{"0"}}},
      {"WORKLOAD --hosts", {}},
      {"WORKLOAD --link", {}},
      {"WORKLOAD --history", {kAnyName}},
      {"WORKLOAD --estimator", {}},
      {"WORKLOAD --feedback-threshold", {}},
      {"WORKLOAD --batch-interval", {}},
      {"WORKLOAD --goal", {}},
      {"WORKLOAD --estimate-margin", {}},
      {"WORKLOAD --lof-threshold", {}},
      {"WORKLOAD --lof-min-pts", {}},
      {"WORKLOAD --confidence", {}},
      {"WORKLOAD --fault-budget", {{"0"}}},
      {"WORKLOAD --max-attempts", {}},
      {"WORKLOAD --memory-limit", {}},
      {"WORKLOAD --inject", {}},
      {"WORKLOAD --reduce-slowstart", {}},
      {"WORKLOAD --forecast", {}},
      {"WORKLOAD --reject-policy", {}},
      {"WORKLOAD --preempt", {}},
      {"WORKLOAD --allocation-interval", {}},
      {"workload --policy", {}},
      {"compare --policies", {{}, "fifo"}},
      {"compare --seeds", {}},
      {"compare --sweep", {kAnyName}},  // checked against the preset when it runs
      {"compare --load", {}},           // each in (0, 1000000]
      {"workload --load", {}},
      {"calibrate --apps", {}},
      {"calibrate --size", {}},
      {"calibrate --cluster", {}},
      {"calibrate --output", {kAnyName}},
      {"gen text --output", {kAnyName, "out.txt"}},
      {"gen text --size", {}},
      {"gen text --zipf", {{"0"}}},
      {"gen text --vocab", {}},
      {"gen text --seed", {{"0"}}},
      {"gen graph --output", {kAnyName, "out.tsv"}},
      {"gen graph --nodes", {{}, "100"}},
      {"gen graph --edges", {{}, "1000"}},
      {"gen graph --model", {}},
      // Any finite number above 1; what the model reaches with the nodes and edges is
      // checked when the graph is made.
      {"gen graph --skew", {{"1e308", "18446744073709551616"}}},
      {"gen graph --seed", {{"0"}}},
      {"history --history", {kAnyName}},
      {"history show APP", {kAnyName}},
      {"history reset APP", {kAnyName}},
      {"fs --store", {kAnyName, "store"}},
      {"fs put LOCAL", {kAnyName, "local.txt"}},
      {"fs put PATH", {kAnyName, "/a"}},
      {"fs put --block-size", {}},
      {"fs put --replication", {}},
      {"fs put --nodes", {}},
      {"fs ls PATH", {kAnyName}},
      {"fs cat PATH", {kAnyName, "/a"}},
      {"fs rm PATH", {kAnyName, "/a"}},
  };
  return *table;
}

// The commands that share a set of options share their rows.
std::string RowKey(const std::string& command, const std::string& option) {
  static const std::map<std::string, std::string> kShared = {{"wordcount", "JOB"},
                                                             {"friendcount", "JOB"},
                                                             {"pi", "JOB"},
                                                             {"workload", "WORKLOAD"},
                                                             {"compare", "WORKLOAD"}};
  if (auto it = kShared.find(command); it != kShared.end()) {
    const std::string shared = it->second + " " + option;
    if (Table().contains(shared)) return shared;
  }
  return command + " " + option;
}

bool TakesAValue(const CLI::Option* o) { return o->get_expected_max() != 0; }
std::string NameOf(const CLI::Option* o) { return o->get_name(); }

// One subcommand given on the command line, and its options.
struct Step {
  const CLI::App* app;
  std::string path;  // "gen text"
};

// Every chain of subcommands from the root down to a leaf ("gen", "gen text").
void Leaves(const CLI::App* app, std::vector<Step> chain, std::vector<std::vector<Step>>& out) {
  std::vector<const CLI::App*> subs = app->get_subcommands([](const CLI::App*) { return true; });
  if (subs.empty()) {
    out.push_back(chain);
    return;
  }
  for (const CLI::App* sub : subs) {
    std::vector<Step> next = chain;
    next.push_back({sub, (chain.empty() ? "" : chain.back().path + " ") + sub->get_name()});
    Leaves(sub, next, out);
  }
}

// The command line of `chain` with every required option at its sample, and `tested` at
// `value`. Positionals in their declared order.
std::vector<std::string> CommandLine(const std::vector<Step>& chain, const CLI::Option* tested,
                                     const std::string& value) {
  std::vector<std::string> args = {"mrlocal"};
  for (const Step& step : chain) {
    args.push_back(step.app->get_name());
    // A positional before the tested one is given its sample, required or not: the tested
    // value would be taken for it otherwise ("submit APP FILE").
    const auto options = step.app->get_options();
    const bool tested_here = std::find(options.begin(), options.end(), tested) != options.end();
    bool before_tested = tested_here && !tested->nonpositional();
    for (const CLI::Option* o : options) {
      if (!TakesAValue(o)) continue;
      if (o == tested) before_tested = false;
      std::string v;
      if (o == tested) {
        v = value;
      } else if (o->get_required() || (before_tested && !o->nonpositional())) {
        v = Table().at(RowKey(step.path, NameOf(o))).sample;
      } else {
        continue;
      }
      if (o->nonpositional()) args.push_back(NameOf(o));
      args.push_back(v);
    }
  }
  return args;
}

struct Parsed {
  std::optional<int> exit;  // nullopt: accepted, ready to run
  std::string out, err;
};

Parsed Parse(const std::vector<std::string>& args) {
  MrlocalApp app;
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  Parsed p;
  p.exit = app.Parse(static_cast<int>(argv.size()), argv.data(), out, err);
  p.out = out.str();
  p.err = err.str();
  return p;
}

std::string Shown(const std::vector<std::string>& args) {
  std::string s;
  for (const std::string& a : args) s += (s.empty() ? "" : " ") + ("'" + a + "'");
  return s;
}

TEST(OptionWalk, EveryOptionAcceptsWhatItsRowSaysAndRefusesTheRestInOneLine) {
  MrlocalApp root;
  std::vector<std::vector<Step>> leaves;
  Leaves(&root.root(), {}, leaves);
  ASSERT_GT(leaves.size(), 5u);
  std::set<std::string> walked;
  for (const std::vector<Step>& chain : leaves) {
    for (const Step& step : chain) {
      for (const CLI::Option* o : step.app->get_options()) {
        if (!TakesAValue(o)) continue;
        const std::string key = RowKey(step.path, NameOf(o));
        walked.insert(key);
        auto row = Table().find(key);
        if (row == Table().end()) {
          ADD_FAILURE() << "no row for '" << key << "': add it to Table() with the edge values "
                        << "its help says it accepts";
          continue;
        }
        for (const std::string& edge : kEdges) {
          const std::vector<std::string> args = CommandLine(chain, o, edge);
          SCOPED_TRACE(Shown(args));
          const Parsed p = Parse(args);
          if (row->second.accepted.contains(edge)) {
            EXPECT_EQ(p.exit, std::nullopt) << p.err;
            continue;
          }
          ASSERT_EQ(p.exit, 2) << "accepted, but its row says it is refused";
          EXPECT_EQ(p.out, "");
          EXPECT_EQ(std::count(p.err.begin(), p.err.end(), '\n'), 1) << p.err;
          EXPECT_EQ(p.err.rfind("mrlocal: error: " + NameOf(o) + ": ", 0), 0) << p.err;
          EXPECT_NE(p.err.find("(see mrlocal " + chain.back().path + " --help)"), std::string::npos)
              << p.err;
          // The range the message names is the one the help states.
          const size_t must = p.err.find("must be ");
          if (must == std::string::npos) continue;
          const size_t got = p.err.find(" (got", must);
          const std::string range = p.err.substr(must + 8, got - must - 8);
          EXPECT_NE(o->get_description().find(range), std::string::npos)
              << "help of " << key << " does not state '" << range << "': " << o->get_description();
        }
      }
    }
  }
  for (const auto& [key, row] : Table())
    EXPECT_TRUE(walked.contains(key)) << "row '" << key << "' names no option";
}

TEST(OptionWalk, ATypoPointsAtTheSubcommandsHelp) {
  const Parsed p = Parse({"mrlocal", "gen", "text", "-o", "x", "--sed", "1"});
  EXPECT_EQ(p.exit, 2);
  EXPECT_NE(p.err.find("(see mrlocal gen text --help)"), std::string::npos) << p.err;
  EXPECT_EQ(std::count(p.err.begin(), p.err.end(), '\n'), 1) << p.err;
}

// The binary itself: a refused value runs nothing and writes nothing.
TEST(OptionWalk, ARefusedValueRunsNothingAndWritesNothing) {
  ScratchDir dir;
  testing::WriteFile(dir / "in.txt", "a b c\n");
  const std::vector<std::vector<std::string>> runs = {
      {"wordcount", (dir / "in.txt").string(), "-o", (dir / "out").string(), "--report",
       (dir / "report").string(), "--top", "-1"},
      {"workload", "--preset", "mars-random", "--sim", "--jobs", "0", "--report",
       (dir / "report").string()},
      {"workload", "--preset", "rtmr-wl1", "--sim", "--reduce-slowstart", "0", "--report",
       (dir / "report").string()},
      {"gen", "text", "-o", (dir / "text.txt").string(), "--seed", "-1"},
      {"calibrate", "--apps", "pi", "--size", "nan", "-o", (dir / "cal.json").string()},
  };
  for (const auto& args : runs) {
    SCOPED_TRACE(Shown(args));
    const auto r = RunMrlocal(args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(dir.path()))
      files.push_back(e.path().filename().string());
    EXPECT_EQ(files, std::vector<std::string>{"in.txt"});
  }
}

}  // namespace
}  // namespace mrlocal
