// mrlocal generate text -o FILE [--size SIZE] [--vocabulary N] [--exponent S] [--seed N]
// Writes the deterministic Zipf text of datasets/text_generator.h (the default corpus's
// generator) to a file, for benchmarks and skew experiments.
#include "datasets/text_generator.h"
#include "engine/atomic_file.h"
#include "tools/cli/commands.h"
#include "tools/cli/exit_codes.h"
#include "tools/cli/units.h"

namespace mrlocal {
namespace {

class GenerateCommand final : public Command {
 public:
  explicit GenerateCommand(CLI::App& root) {
    app = root.add_subcommand("generate", "Write generated datasets (Zipf text) to a file");
    app->require_subcommand(1);
    text_ = app->add_subcommand("text", "English-like text with Zipf word frequencies");
    text_->add_option("-o,--output", file_, "File to write")->required();
    text_->add_option("--size", size_, "Bytes to generate")->capture_default_str();
    text_->add_option("--vocabulary", options_.vocabulary, "Distinct words")->capture_default_str();
    text_->add_option("--exponent", options_.exponent, "Zipf exponent s")->capture_default_str();
    text_->add_option("--seed", options_.seed, "Seed")->capture_default_str();
  }

  int Run() override {
    auto bytes = ParseSize(size_);
    if (!bytes.ok())
      return ReportError(Status::InvalidArgument("--size: " + bytes.status().message()));
    if (options_.vocabulary < 1)
      return ReportError(Status::InvalidArgument("--vocabulary must be at least 1"));
    if (!(options_.exponent >= 0 && options_.exponent <= 10))
      return ReportError(Status::InvalidArgument("--exponent must be in [0, 10]"));
    options_.bytes = *bytes;
    std::string text = GenerateText(options_);
    return ExitCodeFor(ReportIfError(WriteFileAtomically(file_, text)));
  }

 private:
  CLI::App* text_;
  std::string file_;
  std::string size_ = "64MiB";
  TextOptions options_ = DefaultCorpusOptions();
};

}  // namespace

std::unique_ptr<Command> AddGenerateCommand(CLI::App& root) {
  return std::make_unique<GenerateCommand>(root);
}

}  // namespace mrlocal
