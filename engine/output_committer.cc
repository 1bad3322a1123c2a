#include "engine/output_committer.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <random>
#include <set>
#include <string_view>
#include <vector>

namespace mrlocal {

namespace fs = std::filesystem;

struct OutputCommitter::State {
  State(fs::path d, fs::path t, bool o) : dir(std::move(d)), tmp(std::move(t)), overwrite(o) {}

  // Called by a Writer: publishes its attempt file as the part, or forgets it.
  Status Publish(uint32_t reduce_index, const fs::path& attempt);
  void Forget(const fs::path& attempt);

  const fs::path dir, tmp;
  const bool overwrite;
  std::mutex mu;
  bool done = false;          // GUARDED_BY(mu): committed or aborted
  uint64_t attempts = 0;      // GUARDED_BY(mu)
  int open_writers = 0;       // GUARDED_BY(mu)
  std::set<uint32_t> closed;  // GUARDED_BY(mu): parts published
};

// One task attempt's part file, written with plain write(2).
class OutputCommitter::Writer final : public OutputSink {
 public:
  Writer(std::shared_ptr<State> owner, uint32_t index, fs::path path, int fd)
      : owner_(std::move(owner)), index_(index), path_(std::move(path)), fd_(fd) {}
  ~Writer() override {
    if (fd_ >= 0) {  // never closed: this attempt leaves nothing
      ::close(fd_);
      owner_->Forget(path_);
    }
  }
  Status Append(std::string_view bytes) override {
    if (fd_ < 0) return Status::Internal("append to closed part '" + path_.string() + "'");
    while (!bytes.empty()) {
      ssize_t n = ::write(fd_, bytes.data(), bytes.size());
      if (n < 0) {
        if (errno == EINTR) continue;
        return Status::IoError("cannot write '" + path_.string() + "': " + std::strerror(errno));
      }
      bytes.remove_prefix(static_cast<size_t>(n));
    }
    return Status::OK();
  }
  Status Close() override {
    if (fd_ < 0) return Status::Internal("part '" + path_.string() + "' closed twice");
    int fd = std::exchange(fd_, -1);
    if (::close(fd) != 0) {
      Status s = Status::IoError("cannot close '" + path_.string() + "': " + std::strerror(errno));
      owner_->Forget(path_);
      return s;
    }
    return owner_->Publish(index_, path_);
  }

 private:
  const std::shared_ptr<State> owner_;
  const uint32_t index_;
  const fs::path path_;
  int fd_;
};

std::string PartName(uint32_t reduce_index) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "part-r-%05u", reduce_index);
  return buf;
}

namespace {

// A part file's name as PartName writes it: "part-r-" and at least five digits.
bool IsPartName(const std::string& name) {
  constexpr std::string_view kPrefix = "part-r-";
  if (name.size() < kPrefix.size() + 5 || name.compare(0, kPrefix.size(), kPrefix) != 0)
    return false;
  return std::all_of(name.begin() + kPrefix.size(), name.end(),
                     [](char c) { return c >= '0' && c <= '9'; });
}

// What in DIR a committed job did not write, sorted ("notes.txt", "sub/"). A committed
// output holds an empty regular `_SUCCESS` and regular part files, nothing else (the
// attempt files and temporaries live beside DIR, never in it). A directory without
// `_SUCCESS` is no job's output, even if all its names look like one's. REQUIRES: DIR is
// not empty.
std::vector<std::string> ForeignEntries(const fs::path& dir, std::error_code& ec) {
  std::vector<std::string> foreign;
  bool success = false;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    const fs::file_status st = e.symlink_status(ec);
    const bool regular = fs::is_regular_file(st);
    if (regular && name == "_SUCCESS" && e.file_size(ec) == 0) {
      success = true;
    } else if (!regular || !IsPartName(name)) {
      foreign.push_back(name + (fs::is_directory(st) ? "/" : ""));
    }
  }
  std::sort(foreign.begin(), foreign.end());
  if (!success && foreign.empty()) foreign.push_back("no _SUCCESS");
  return foreign;
}

// "notes.txt, sub/ and 3 more".
std::string FirstNames(const std::vector<std::string>& names) {
  constexpr size_t kShown = 3;
  std::string list;
  for (size_t i = 0; i < std::min(names.size(), kShown); ++i) list += (i ? ", " : "") + names[i];
  if (names.size() > kShown) list += " and " + std::to_string(names.size() - kShown) + " more";
  return list;
}

// Whether the existing directory DIR may be replaced: only a job's output is, and only
// with `overwrite`; an empty directory always is. Nothing is changed either way.
Status CheckReplaceable(const fs::path& dir, bool overwrite) {
  std::error_code ec;
  if (fs::is_empty(dir, ec) && !ec) return Status::OK();
  std::vector<std::string> foreign = ForeignEntries(dir, ec);
  if (ec) return Status::IoError("cannot read '" + dir.string() + "': " + ec.message());
  if (!foreign.empty())
    return Status::InvalidArgument(
        "Output directory " + dir.string() + " already exists and is not a job's output (" +
        FirstNames(foreign) + "): " +
        (overwrite ? "--overwrite replaces only what a job wrote; nothing was deleted"
                   : "choose another output directory"));
  if (!overwrite)
    return Status::InvalidArgument("Output directory " + dir.string() +
                                   " already exists (use --overwrite to replace it)");
  return Status::OK();
}

// Removes a job's output that CheckReplaceable accepted, file by file: anything that
// appeared in it since is left alone, and so is the directory then.
void RemoveJobOutput(const fs::path& dir) {
  std::error_code ec;
  std::vector<fs::path> ours;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (fs::is_regular_file(e.symlink_status(ec)) && (name == "_SUCCESS" || IsPartName(name)))
      ours.push_back(e.path());
  }
  for (const fs::path& p : ours) fs::remove(p, ec);
  fs::remove(dir, ec);
}

// DIR as Begin uses it ("out/" -> "out"), or what is wrong with the name or the directory.
Result<fs::path> CheckedDir(const fs::path& dir_in, bool overwrite) {
  if (dir_in.empty()) return Status::InvalidArgument("output directory name is empty");
  fs::path dir = dir_in.lexically_normal();
  if (dir.filename().empty()) dir = dir.parent_path();  // "out/" -> "out"
  if (dir.empty() || dir.filename() == "." || dir.filename() == "..")
    return Status::InvalidArgument("output directory '" + dir_in.string() +
                                   "' must name a directory (not '.' or '..')");
  std::error_code ec;
  if (fs::exists(fs::symlink_status(dir, ec))) {
    if (!fs::is_directory(dir, ec))
      return Status::InvalidArgument(
          "output '" + dir.string() + "' exists and is not a directory" +
          (overwrite ? ": --overwrite replaces only a job's output" : ""));
    MRLOCAL_RETURN_IF_ERROR(CheckReplaceable(dir, overwrite));
  }
  return dir;
}

}  // namespace

Status OutputCommitter::Check(const fs::path& dir, bool overwrite) {
  return CheckedDir(dir, overwrite).status();
}

Result<std::unique_ptr<OutputCommitter>> OutputCommitter::Begin(const fs::path& dir_in,
                                                                bool overwrite) {
  Result<fs::path> checked = CheckedDir(dir_in, overwrite);
  if (!checked.ok()) return checked.status();
  const fs::path dir = std::move(checked).value();
  std::error_code ec;
  fs::path parent = dir.has_parent_path() ? dir.parent_path() : fs::path(".");
  fs::create_directories(parent, ec);
  if (ec) return Status::IoError("cannot create '" + parent.string() + "': " + ec.message());
  std::random_device rd;
  for (int attempt = 0; attempt < 16; ++attempt) {
    // Hidden, beside DIR, on the same file system, so the final rename is atomic.
    std::string name = ".";  // appended piecewise: g++ 12 warns on "." + string (-Wrestrict)
    name += dir.filename().string();
    name += ".mrlocal-tmp-" + std::to_string(::getpid()) + "-" + std::to_string(rd());
    fs::path tmp = parent / name;
    if (fs::create_directory(tmp, ec))
      return std::unique_ptr<OutputCommitter>(
          new OutputCommitter(std::make_shared<State>(dir, tmp, overwrite)));
    if (ec) return Status::IoError("cannot create '" + tmp.string() + "': " + ec.message());
  }
  return Status::IoError("cannot create a temporary directory beside '" + dir.string() + "'");
}

OutputCommitter::~OutputCommitter() { Abort(); }

const fs::path& OutputCommitter::dir() const { return state_->dir; }
const fs::path& OutputCommitter::temporary_dir() const { return state_->tmp; }

Result<std::unique_ptr<OutputSink>> OutputCommitter::OpenPart(uint32_t reduce_index) {
  State& st = *state_;
  std::lock_guard<std::mutex> lock(st.mu);
  if (st.done) return Status::Internal("output '" + st.dir.string() + "' is already finished");
  fs::path path =
      st.tmp / ("_attempt-" + PartName(reduce_index) + "-" + std::to_string(st.attempts++));
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0)
    return Status::IoError("cannot create '" + path.string() + "': " + std::strerror(errno));
  ++st.open_writers;
  return std::unique_ptr<OutputSink>(std::make_unique<Writer>(state_, reduce_index, path, fd));
}

Status OutputCommitter::State::Publish(uint32_t reduce_index, const fs::path& attempt) {
  std::lock_guard<std::mutex> lock(mu);
  --open_writers;
  std::error_code ec;
  if (done) {
    fs::remove(attempt, ec);
    return Status::Aborted("output '" + dir.string() + "' was already finished");
  }
  fs::rename(attempt, tmp / PartName(reduce_index), ec);  // replaces an earlier attempt
  if (ec) {
    fs::remove(attempt, ec);
    return Status::IoError("cannot publish " + PartName(reduce_index) + ": " + ec.message());
  }
  closed.insert(reduce_index);
  return Status::OK();
}

void OutputCommitter::State::Forget(const fs::path& attempt) {
  std::lock_guard<std::mutex> lock(mu);
  --open_writers;
  std::error_code ec;
  fs::remove(attempt, ec);
}

Status OutputCommitter::Commit(uint32_t parts) {
  State& st = *state_;
  std::lock_guard<std::mutex> lock(st.mu);
  if (st.done) return Status::Internal("output '" + st.dir.string() + "' is already finished");
  if (st.open_writers > 0)
    return Status::Internal("cannot commit '" + st.dir.string() +
                            "': " + std::to_string(st.open_writers) + " part writer(s) still open");
  for (uint32_t r = 0; r < parts; ++r) {
    if (!st.closed.count(r))
      return Status::Internal("cannot commit '" + st.dir.string() + "': " + PartName(r) +
                              " was never completed");
  }
  if (!st.closed.empty() && *st.closed.rbegin() >= parts)
    return Status::Internal("cannot commit '" + st.dir.string() + "': unexpected " +
                            PartName(*st.closed.rbegin()));
  std::error_code ec;
  const fs::path success = st.tmp / "_SUCCESS";
  if (FILE* f = std::fopen(success.c_str(), "wx"); !f || std::fclose(f) != 0)
    return Status::IoError("cannot write '" + success.string() + "'");
  // Move an existing (empty, or --overwrite) directory aside, put ours in its place, then
  // drop the old one: DIR is never seen half-written. Checked again: DIR may have changed
  // while the job ran, and once more after the move, as it may change until then.
  fs::path old;
  if (fs::exists(fs::symlink_status(st.dir, ec))) {
    Result<fs::path> replaceable = CheckedDir(st.dir, st.overwrite);
    if (!replaceable.ok()) return replaceable.status();
    old = st.tmp;
    old += ".old";
    fs::rename(st.dir, old, ec);
    if (ec) return Status::IoError("cannot replace '" + st.dir.string() + "': " + ec.message());
    if (!CheckReplaceable(old, st.overwrite).ok()) {
      fs::rename(old, st.dir, ec);
      return CheckReplaceable(st.dir, st.overwrite);
    }
  }
  fs::rename(st.tmp, st.dir, ec);
  if (ec) {
    std::error_code ignored;
    if (!old.empty()) fs::rename(old, st.dir, ignored);
    return Status::IoError("cannot rename output into '" + st.dir.string() + "': " + ec.message());
  }
  st.done = true;
  if (!old.empty()) RemoveJobOutput(old);
  return Status::OK();
}

void OutputCommitter::Abort() {
  State& st = *state_;
  std::lock_guard<std::mutex> lock(st.mu);
  if (st.done) return;
  st.done = true;
  std::error_code ec;
  fs::remove_all(st.tmp, ec);
}

}  // namespace mrlocal
