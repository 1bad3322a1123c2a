// Shared helpers for the tests: scratch directories, running the mrlocal binary, the
// real datasets, and an independent reference word counter.
#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "engine/job_runtime.h"
#include "engine/task_context.h"

namespace mrlocal::testing {

// An OutputSink that keeps what a reduce task writes.
struct StringSink final : OutputSink {
  Status Append(std::string_view b) override {
    text.append(b);
    return Status::OK();
  }
  std::string text;
};

// A slot that tells the task to stop at its n-th checkpoint.
class StopAt final : public TaskContext {
 public:
  explicit StopAt(int n) : n_(n) {}
  bool Checkpoint(double) override { return ++calls < n_; }
  int calls = 0;

 private:
  int n_;
};

// A fresh directory under the system temp dir, removed with everything in it on scope exit.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(std::string_view name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

void WriteFile(const std::filesystem::path& p, std::string_view bytes);
std::string ReadFile(const std::filesystem::path& p);
// Every file under `dir` (relative path) and its content; directories as "name/" -> "".
std::map<std::string, std::string> DirectoryTree(const std::filesystem::path& dir);
// The names of the entries directly in `dir`, to assert what a command left there.
std::set<std::string> EntryNames(const std::filesystem::path& dir);

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs the built `mrlocal` binary with `args` (no shell), capturing both streams.
CommandResult RunMrlocal(const std::vector<std::string>& args);
// The environment a child mrlocal runs in: ours, and a history file of this test process's
// own (jobs with a deadline read and update one; never the user's unless MRLOCAL_HISTORY is
// set).
std::vector<std::string> ChildEnvironment();
// Runs `program` (a path) with `args`, and `extra_env` ("NAME=value") added to the
// environment the suite gives its children.
CommandResult RunProgram(const std::string& program, const std::vector<std::string>& args,
                         const std::vector<std::string>& extra_env = {});

// Whether `text` contains `fragment`; the number of '\n' in `text`.
bool Contains(std::string_view text, std::string_view fragment);
int CountLines(std::string_view text);
// The lines of `text` that end with a newline, without it.
std::vector<std::string> Lines(const std::string& text);

// A refused command as users should see one: exit 2 and one line on stderr, an error that
// names `fragment`. (Not named ExpectOneLineError: a test's own helper of that name would
// be ambiguous through argument-dependent lookup.)
void ExpectUsageError(const CommandResult& r, std::string_view fragment);

// Path of ../shared/datasets next to the source tree, or empty when it is absent.
std::filesystem::path SharedDatasets();

// Skips the current test when ../shared/datasets is not there.
#define MRLOCAL_REQUIRE_DATASETS()                              \
  do {                                                          \
    if (::mrlocal::testing::SharedDatasets().empty())           \
      GTEST_SKIP() << "../shared/datasets is absent; skipping"; \
  } while (0)

// Reference WordCount, written independently of apps/wordcount: a word is
// [A-Za-z][A-Za-z']*, lower-cased; every other byte separates words.
std::map<std::string, uint64_t> ReferenceWordCount(std::string_view text);

// Reads every part-r-* file of a job output directory into one map, checking that each
// part's keys are strictly ascending (as bytes, or as numbers for integer keys) and every
// line is "key\tvalue".
enum class KeyOrder { kBytes, kNumeric };
std::map<std::string, std::string> ReadJobOutput(const std::filesystem::path& dir,
                                                 KeyOrder order = KeyOrder::kBytes);

// The file's bytes; a ".gz" file is decompressed with zlib's gzread (all members).
std::string ReadMaybeGzip(const std::filesystem::path& p);
// Writes `bytes` as a gzip file with zlib's gzwrite, as `members` concatenated members.
void WriteGzip(const std::filesystem::path& p, std::string_view bytes, int members = 1);

// Reference friend-count, written independently of apps/friendcount with iostreams: for
// every non-comment line "u v", u and v are friends unless u == v. Lines that do not
// parse as two ids are ignored (callers give it valid graphs).
std::map<uint64_t, std::set<uint64_t>> ReferenceFriends(std::string_view edges);

}  // namespace mrlocal::testing
