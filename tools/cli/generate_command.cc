// mrlocal gen text  --size SIZE [--zipf S] [--vocab N] [--seed N] -o FILE [--overwrite]
// mrlocal gen graph --nodes N --edges E [--model chung-lu|rmat] [--skew R] [--seed N] -o FILE
//                   [--overwrite]
// (`generate` is an alias of `gen`; `--exponent` and `--vocabulary` of `--zipf`, `--vocab`.)
// Writes the deterministic datasets of datasets/text_generator.h and graph_generator.h,
// for benchmarks and skew experiments. The seed is 1 unless given.

#include <atomic>
#include <cfloat>
#include <condition_variable>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <thread>
#include <vector>

#include "datasets/graph_generator.h"
#include "datasets/text_generator.h"
#include "engine/atomic_file.h"
#include "sched/core/units.h"
#include "tools/cli/commands.h"
#include "tools/cli/option_checks.h"
#include "tools/runtime/exit_codes.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;

std::atomic<int> g_signal{0};
void OnGenSignal(int sig) { g_signal.store(sig); }

// Writes `header`, then chunks 0..n-1 as `make(i, &buffer)` makes them on every core, to
// `file` through an AtomicFileWriter: the file is never seen half-written, and a failure or
// Ctrl-C leaves nothing. Memory stays at one chunk per thread, and each chunk is written
// while the other threads make theirs.
template <class Make>
Status WriteChunks(const std::string& file, std::string_view header, uint64_t chunks, Make make) {
  // Signals are handled before the temporary exists, so it never outlives a Ctrl-C.
  g_signal.store(0);
  auto old_int = std::signal(SIGINT, OnGenSignal);
  auto old_term = std::signal(SIGTERM, OnGenSignal);
  auto restore = [&] {
    std::signal(SIGINT, old_int);
    std::signal(SIGTERM, old_term);
  };
  RemoveStaleTemporaries(file);  // of a `gen` killed before it finished
  auto writer = AtomicFileWriter::Create(file);
  if (!writer.ok()) {
    restore();
    return writer.status();
  }
  AtomicFileWriter& out = **writer;
  std::mutex mu;
  std::condition_variable turn;
  uint64_t next = 0;  // the chunk whose turn it is to be written
  Status error = out.Append(header);
  std::atomic<bool> stop{!error.ok()};
  const unsigned threads = static_cast<unsigned>(
      std::max<uint64_t>(1, std::min<uint64_t>(std::thread::hardware_concurrency(), chunks)));
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      std::string buf;
      for (uint64_t c = t; c < chunks && !stop; c += threads) {
        make(c, &buf);
        {
          std::unique_lock lock(mu);
          turn.wait(lock, [&] { return next == c || stop; });
        }
        if (stop) break;
        // Only the chunk whose turn it is writes, so Append is never called concurrently.
        Status s = g_signal.load() ? Status::Aborted("interrupted") : out.Append(buf);
        std::lock_guard lock(mu);
        if (!s.ok()) {
          if (error.ok()) error = s;
          stop = true;
        }
        ++next;
        turn.notify_all();
      }
    });
  }
  for (auto& th : pool) th.join();
  restore();

  if (int sig = g_signal.load())
    return Status::Aborted(std::string("interrupted by ") + strsignal(sig));
  if (!error.ok()) return error;
  return out.Commit();
}

int ExitCodeOf(const Status& s) {
  if (s.ok()) return kExitOk;
  ReportError(s);
  return s.code() == Status::Code::kAborted ? 130 : ExitCodeFor(s);  // as `wordcount` does
}

// As `wordcount -o` does for a directory: a file that exists is replaced only when asked.
Status CheckOutputFile(const std::string& file, bool overwrite) {
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(file, ec);
  if (fs::is_directory(st))
    return Status::InvalidArgument("output '" + file + "' exists and is a directory");
  if (fs::exists(st) && !overwrite)
    return Status::InvalidArgument("Output file " + file +
                                   " already exists (use --overwrite to replace it)");
  return Status::OK();
}

class GenCommand final : public Command {
 public:
  explicit GenCommand(CLI::App& root) {
    app = root.add_subcommand("gen", "Write generated datasets (Zipf text, power-law graphs)");
    app->alias("generate");
    app->require_subcommand(1);

    text_ = app->add_subcommand("text", "English-like text with Zipf word frequencies");
    AddOutput(text_, text_file_);
    Within(text_->add_option("--size", size_, "Bytes to generate"), SizeAtLeast(1))
        ->capture_default_str();
    Within(text_->add_option("--zipf,--exponent", text_options_.exponent, "Zipf exponent s"),
           NumberIn(0, 10))
        ->capture_default_str();
    Within(text_->add_option("--vocab,--vocabulary", text_options_.vocabulary, "Distinct words"),
           IntegerIn<uint32_t>(1, 100'000'000))
        ->capture_default_str();
    AddSeed(text_, text_options_.seed);

    graph_ = app->add_subcommand("graph", "Power-law graph as a SNAP edge list (src<TAB>dst)");
    AddOutput(graph_, graph_file_);
    Within(graph_->add_option("--nodes", graph_options_.nodes, "Node ids are [0, N)"),
           IntegerIn<uint64_t>(2, uint64_t{1} << 32))
        ->required();
    Within(graph_->add_option("--edges", graph_options_.edges, "Edge lines (duplicates included)"),
           IntegerIn<uint64_t>(1, UINT64_MAX))
        ->required();
    Within(graph_->add_option("--model", model_, "The graph model"), OneOf({"chung-lu", "rmat"}))
        ->capture_default_str();
    Within(graph_->add_option(
               "--skew", graph_options_.skew,
               "Target max/mean distinct-neighbour degree (facebook 24, slashdot 208; default " +
                   std::to_string(static_cast<int>(GraphGenerator::kDefaultSkew)) +
                   ", or the most these nodes and edges reach)"),
           NumberIn(1, DBL_MAX, LowEnd::kOpen));
    AddSeed(graph_, graph_options_.seed);
  }

  int Run() override { return text_->parsed() ? RunText() : RunGraph(); }

 private:
  void AddOutput(CLI::App* cmd, std::string& file) {
    cmd->add_option("-o,--output", file, "File to write")->required()->check(NotEmpty());
    cmd->add_flag("--overwrite", overwrite_, "Replace an existing output file");
  }
  static void AddSeed(CLI::App* cmd, uint64_t& seed) {
    Within(cmd->add_option("--seed", seed, "Seed"), IntegerIn<uint64_t>(0, UINT64_MAX))
        ->capture_default_str();
  }

  int RunText() {
    if (Status st = CheckOutputFile(text_file_, overwrite_); !st.ok()) return ReportError(st);
    text_options_.bytes = ParseSize(size_).value();
    TextGenerator gen(text_options_);
    return ExitCodeOf(WriteChunks(text_file_, "", gen.chunks(),
                                  [&gen](uint64_t i, std::string* out) { gen.Chunk(i, out); }));
  }

  int RunGraph() {
    if (Status st = CheckOutputFile(graph_file_, overwrite_); !st.ok()) return ReportError(st);
    graph_options_.model = ParseGraphModel(model_).value();
    auto gen = GraphGenerator::Create(graph_options_);
    if (!gen.ok()) return ReportError(gen.status());
    return ExitCodeOf(WriteChunks(graph_file_, gen->Header(), gen->chunks(),
                                  [&gen](uint64_t i, std::string* out) { gen->Chunk(i, out); }));
  }

  CLI::App* text_;
  CLI::App* graph_;
  std::string text_file_, graph_file_;
  bool overwrite_ = false;
  std::string size_ = "64MiB";
  TextOptions text_options_ = [] {
    TextOptions o = DefaultCorpusOptions();
    o.seed = 1;
    return o;
  }();
  GraphOptions graph_options_;
  std::string model_ = "chung-lu";
};

}  // namespace

std::unique_ptr<Command> AddGenerateCommand(CLI::App& root) {
  return std::make_unique<GenCommand>(root);
}

}  // namespace mrlocal
