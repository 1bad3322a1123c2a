// mrlocal gen text  --size SIZE [--zipf S] [--vocab N] [--seed N] -o FILE
// mrlocal gen graph --nodes N --edges E [--model chung-lu|rmat] [--skew R] [--seed N] -o FILE
// (`generate` is an alias of `gen`; `--exponent` and `--vocabulary` of `--zipf`, `--vocab`.)
// Writes the deterministic datasets of datasets/text_generator.h and graph_generator.h,
// for benchmarks and skew experiments. The seed is 1 unless given.

#include <atomic>
#include <condition_variable>
#include <csignal>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "datasets/graph_generator.h"
#include "datasets/text_generator.h"
#include "engine/atomic_file.h"
#include "tools/cli/commands.h"
#include "tools/cli/exit_codes.h"
#include "sched/core/units.h"

namespace mrlocal {
namespace {

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

class GenCommand final : public Command {
 public:
  explicit GenCommand(CLI::App& root) {
    app = root.add_subcommand("gen", "Write generated datasets (Zipf text, power-law graphs)");
    app->alias("generate");
    app->require_subcommand(1);

    text_ = app->add_subcommand("text", "English-like text with Zipf word frequencies");
    text_->add_option("-o,--output", text_file_, "File to write")->required();
    text_->add_option("--size", size_, "Bytes to generate (64MiB, 1GiB, 500MB...)")
        ->capture_default_str();
    text_->add_option("--zipf,--exponent", text_options_.exponent, "Zipf exponent s")
        ->capture_default_str();
    text_->add_option("--vocab,--vocabulary", text_options_.vocabulary, "Distinct words")
        ->capture_default_str();
    text_->add_option("--seed", text_options_.seed, "Seed")->capture_default_str();

    graph_ = app->add_subcommand("graph", "Power-law graph as a SNAP edge list (src<TAB>dst)");
    graph_->add_option("-o,--output", graph_file_, "File to write")->required();
    graph_->add_option("--nodes", graph_options_.nodes, "Node ids are [0, N); 2 to 2^32")
        ->required();
    graph_->add_option("--edges", graph_options_.edges, "Edge lines (duplicates included)")
        ->required();
    graph_->add_option("--model", model_, "chung-lu or rmat")->capture_default_str();
    graph_
        ->add_option("--skew", graph_options_.skew,
                     "Target max/mean distinct-neighbour degree (facebook 24, slashdot 208)")
        ->capture_default_str();
    graph_->add_option("--seed", graph_options_.seed, "Seed")->capture_default_str();
  }

  int Run() override { return text_->parsed() ? RunText() : RunGraph(); }

 private:
  int RunText() {
    auto bytes = ParseSize(size_);
    if (!bytes.ok())
      return ReportError(Status::InvalidArgument("--size: " + bytes.status().message()));
    if (*bytes == 0) return ReportError(Status::InvalidArgument("--size must be positive"));
    if (text_options_.vocabulary < 1 || text_options_.vocabulary > 100'000'000)
      return ReportError(Status::InvalidArgument("--vocab must be in [1, 100000000]"));
    if (!(text_options_.exponent >= 0 && text_options_.exponent <= 10))
      return ReportError(Status::InvalidArgument("--zipf must be in [0, 10]"));
    text_options_.bytes = *bytes;
    TextGenerator gen(text_options_);
    return ExitCodeOf(WriteChunks(text_file_, "", gen.chunks(),
                                  [&gen](uint64_t i, std::string* out) { gen.Chunk(i, out); }));
  }

  int RunGraph() {
    auto model = ParseGraphModel(model_);
    if (!model.ok()) return ReportError(model.status());
    graph_options_.model = *model;
    auto gen = GraphGenerator::Create(graph_options_);
    if (!gen.ok()) return ReportError(gen.status());
    return ExitCodeOf(WriteChunks(graph_file_, gen->Header(), gen->chunks(),
                                  [&gen](uint64_t i, std::string* out) { gen->Chunk(i, out); }));
  }

  CLI::App* text_;
  CLI::App* graph_;
  std::string text_file_, graph_file_;
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
