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
#include <tuple>
#include <vector>

#include "engine/kill_point.h"
#include "engine/stale_temporary.h"

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

// The marker in a temporary directory: who writes it (engine/stale_temporary.h).
constexpr char kOwnerMarker[] = "_mrlocal-owner";
constexpr char kAttemptPrefix[] = "_attempt-";

// What a job writes in its temporary directory: the marker, attempt files, parts, _SUCCESS.
bool IsTemporaryEntry(const std::string& name) {
  if (name == kOwnerMarker || name == "_SUCCESS" || IsPartName(name)) return true;
  // "_attempt-part-r-00003-7"
  const std::string_view prefix = kAttemptPrefix;
  if (name.compare(0, prefix.size(), prefix) != 0) return false;
  const size_t dash = name.rfind('-');
  return dash > prefix.size() && IsPartName(name.substr(prefix.size(), dash - prefix.size())) &&
         dash + 1 < name.size() &&
         std::all_of(name.begin() + static_cast<long>(dash) + 1, name.end(),
                     [](char c) { return c >= '0' && c <= '9'; });
}

bool IsJobOutputEntry(const std::string& name) { return name == "_SUCCESS" || IsPartName(name); }

// Removes the regular files in `dir` that `ours` accepts, `_SUCCESS` first (so that a
// removal cut short never leaves a `_SUCCESS` without its parts), then `dir` if that
// emptied it. Returns what is left, sorted ("notes.txt", "sub/").
std::vector<std::string> RemoveWritten(const fs::path& dir, bool (*ours)(const std::string&)) {
  std::error_code ec;
  std::vector<fs::path> mine;
  std::vector<std::string> left;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    const fs::file_status st = e.symlink_status(ec);
    if (!fs::is_regular_file(st) || !ours(name))
      left.push_back(name + (fs::is_directory(st) ? "/" : ""));
    else if (name == "_SUCCESS")
      mine.insert(mine.begin(), e.path());
    else
      mine.push_back(e.path());
  }
  for (const fs::path& p : mine) {
    fs::remove(p, ec);
    KillPoint("output-removing");
  }
  if (left.empty()) fs::remove(dir, ec);
  std::sort(left.begin(), left.end());
  return left;
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
void RemoveJobOutput(const fs::path& dir) { RemoveWritten(dir, IsJobOutputEntry); }

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

// Writes the marker into the new temporary directory `tmp`, or removes `tmp`.
Status WriteOwnerMarker(const fs::path& tmp) {
  const fs::path marker = tmp / kOwnerMarker;
  const std::string text = EncodeOwner(ThisProcess());
  FILE* f = std::fopen(marker.c_str(), "wx");
  const bool written = f && std::fwrite(text.data(), 1, text.size(), f) == text.size();
  if (f && std::fclose(f) != 0) f = nullptr;
  if (f && written) return Status::OK();
  std::error_code ec;
  fs::remove_all(tmp, ec);
  return Status::IoError("cannot write '" + marker.string() + "'");
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
    fs::path tmp = parent / (OwnTemporaryPrefix(dir) + std::to_string(rd()));
    if (fs::create_directory(tmp, ec)) {
      MRLOCAL_RETURN_IF_ERROR(WriteOwnerMarker(tmp));
      return std::unique_ptr<OutputCommitter>(
          new OutputCommitter(std::make_shared<State>(dir, tmp, overwrite)));
    }
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
  KillPoint("part-published");
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
  KillPoint("commit-success-written");
  // The output holds only what a job writes. From here until the rename, a killed run's
  // directory has no marker: RemoveStale then judges it by its name's PID.
  if (!fs::remove(st.tmp / kOwnerMarker, ec) || ec)
    return Status::IoError("cannot remove '" + (st.tmp / kOwnerMarker).string() + "'");
  KillPoint("commit-marker-removed");
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
    KillPoint("commit-moved-aside");
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
  KillPoint("commit-renamed");
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

namespace mrlocal {
namespace {

// "o" as the user named it, "d/.o.mrlocal-tmp-12-3" beside it.
std::string Shown(const fs::path& dir, const fs::path& entry) {
  return (dir.has_parent_path() ? dir.parent_path() / entry.filename() : entry.filename()).string();
}

// A previous output (or the empty DIR) that a killed commit had moved aside to `old`.
// Put back while DIR is missing: the killed job never finished, so DIR is as it was
// before it. Once DIR is there (the commit had renamed the new output in), the user's
// --overwrite asked for the old one to go.
std::string RecoverMovedAside(const fs::path& dir, const fs::path& old) {
  std::error_code ec;
  const std::string shown = Shown(dir, old);
  if (!fs::exists(fs::symlink_status(dir, ec)) &&
      (fs::is_empty(old, ec) || fs::is_regular_file(fs::symlink_status(old / "_SUCCESS", ec)))) {
    fs::rename(old, dir, ec);
    if (!ec)
      return "put back '" + dir.string() + "', which a killed run had moved to '" + shown +
             "' to replace it";
  }
  std::vector<std::string> left = RemoveWritten(old, IsJobOutputEntry);
  if (left.empty())
    return "removed '" + shown + "', an output that a killed run with --overwrite had replaced";
  return "left '" + shown + "', moved aside by a killed run, in place: it holds files " +
         "mrlocal did not write (" + FirstNames(left) + ")";
}

std::string RemoveStaleTemporary(const fs::path& dir, const fs::path& tmp) {
  const std::string shown = Shown(dir, tmp);
  std::vector<std::string> left = RemoveWritten(tmp, IsTemporaryEntry);
  if (left.empty())
    return "removed a stale temporary directory '" + shown + "' left by a killed run";
  return "left a stale temporary directory '" + shown + "' in place: it holds files mrlocal " +
         "did not write (" + FirstNames(left) + ")";
}

// The process that wrote the temporary directory `tmp`: its marker's, or its name's PID.
TemporaryOwner OwnerOf(const fs::path& tmp, pid_t pid) {
  std::FILE* f = std::fopen((tmp / kOwnerMarker).c_str(), "r");
  if (!f) return {pid, 0};
  char buf[128];
  const size_t n = std::fread(buf, 1, sizeof buf, f);
  std::fclose(f);
  std::optional<TemporaryOwner> owner = DecodeOwner(std::string_view(buf, n));
  return owner && owner->pid == pid ? *owner : TemporaryOwner{pid, 0};
}

std::optional<timespec> Later(std::optional<timespec> a, std::optional<timespec> b) {
  if (!a || !b) return std::nullopt;
  return std::tie(a->tv_sec, a->tv_nsec) < std::tie(b->tv_sec, b->tv_nsec) ? b : a;
}

}  // namespace

std::vector<std::string> OutputCommitter::RemoveStale(const fs::path& dir_in) {
  fs::path dir = dir_in.lexically_normal();
  if (dir.filename().empty()) dir = dir.parent_path();
  if (dir.empty() || dir.filename() == "." || dir.filename() == "..") return {};
  const fs::path parent = dir.has_parent_path() ? dir.parent_path() : fs::path(".");
  const std::string prefix = TemporaryPrefix(dir);
  std::vector<std::pair<fs::path, bool>> stale;  // (entry, moved aside)
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(parent, ec)) {
    std::string_view suffix;
    const std::string name = e.path().filename().string();
    const std::optional<pid_t> pid = TemporaryPid(name, prefix, &suffix);
    if (!pid || !fs::is_directory(e.symlink_status(ec))) continue;
    // Begin's "N", or Commit's "N.old" for a previous output moved aside.
    const bool aside = suffix.size() > 4 && suffix.substr(suffix.size() - 4) == ".old";
    if (aside) suffix.remove_suffix(4);
    if (suffix.empty() ||
        !std::all_of(suffix.begin(), suffix.end(), [](char c) { return c >= '0' && c <= '9'; }))
      continue;
    // Without a marker, the PID's process must have started after the entry last changed;
    // the parent's change (the rename into it) bounds that too, whatever the file system.
    const std::optional<timespec> changed = Later(ChangeTime(e.path()), ChangeTime(parent));
    if (changed && OwnerGone(aside ? TemporaryOwner{*pid, 0} : OwnerOf(e.path(), *pid), *changed))
      stale.emplace_back(e.path(), aside);
  }
  std::vector<std::string> said;
  for (const auto& [path, aside] : stale) {
    said.push_back(aside ? RecoverMovedAside(dir, path) : RemoveStaleTemporary(dir, path));
    NoteStale(said.back());
  }
  return said;
}

}  // namespace mrlocal
