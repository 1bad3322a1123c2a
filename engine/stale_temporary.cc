#include "engine/stale_temporary.h"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <fstream>
#include <iterator>
#include <limits>
#include <mutex>
#include <sstream>

namespace mrlocal {
namespace {

namespace fs = std::filesystem;

// What /proc/PID/stat says of a process: whether it is a zombie and when it started.
struct ProcStat {
  bool zombie = false;
  uint64_t start_ticks = 0;
};

// nullopt when /proc does not show a process PID (none runs, or /proc hides it).
std::optional<ProcStat> ReadProcStat(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  if (!in) return std::nullopt;
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // "PID (COMM) STATE ...": COMM may hold spaces and parentheses; the last ')' ends it.
  const size_t close = text.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream fields(text.substr(close + 1));
  std::string field;
  ProcStat st;
  for (int k = 3; k <= 22 && fields >> field; ++k) {
    if (k == 3) st.zombie = field == "Z" || field == "X";
    if (k == 22) std::from_chars(field.data(), field.data() + field.size(), st.start_ticks);
  }
  return st;
}

// The boot time's whole seconds (/proc/stat "btime"), which is at most the true one.
std::optional<int64_t> BootTime() {
  std::ifstream in("/proc/stat");
  std::string key;
  int64_t value = 0;
  while (in >> key) {
    if (key == "btime" && in >> value) return value;
    in.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  return std::nullopt;
}

// Whether a process that started `start_ticks` after boot surely started after `t`:
// boot time and ticks are both rounded down, so the start computed is a lower bound.
bool StartedAfter(uint64_t start_ticks, const timespec& t) {
  const std::optional<int64_t> boot = BootTime();
  const long hz = ::sysconf(_SC_CLK_TCK);
  if (!boot || hz <= 0) return false;
  const int64_t ticks = static_cast<int64_t>(start_ticks);
  const int64_t sec = *boot + ticks / hz;
  const int64_t nsec = (ticks % hz) * (1000000000 / hz);
  return sec > t.tv_sec || (sec == t.tv_sec && nsec > t.tv_nsec);
}

std::mutex notice_mu;
std::function<void(const std::string&)>& Notice() {  // GUARDED_BY(notice_mu)
  static std::function<void(const std::string&)> notice;
  return notice;
}

}  // namespace

void SetStaleNotice(std::function<void(const std::string& sentence)> notice) {
  std::lock_guard<std::mutex> lock(notice_mu);
  Notice() = std::move(notice);
}

void NoteStale(const std::string& sentence) {
  std::lock_guard<std::mutex> lock(notice_mu);
  if (Notice()) Notice()(sentence);
}

TemporaryOwner ThisProcess() {
  TemporaryOwner o;  // not cached: a forked child is another process
  o.pid = ::getpid();
  if (std::optional<ProcStat> st = ReadProcStat(o.pid)) o.start_ticks = st->start_ticks;
  return o;
}

std::string TemporaryPrefix(const fs::path& target) {
  std::string name = ".";  // appended piecewise: g++ 12 warns on "." + string (-Wrestrict)
  name += target.filename().string();
  name += ".mrlocal-tmp-";
  return name;
}

std::string OwnTemporaryPrefix(const fs::path& target) {
  return TemporaryPrefix(target) + std::to_string(::getpid()) + "-";
}

std::optional<pid_t> TemporaryPid(std::string_view name, std::string_view prefix,
                                  std::string_view* suffix) {
  if (name.size() <= prefix.size() || name.substr(0, prefix.size()) != prefix) return std::nullopt;
  name.remove_prefix(prefix.size());
  pid_t pid = 0;
  auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), pid);
  if (ec != std::errc() || pid <= 0 || end == name.data() + name.size() || *end != '-')
    return std::nullopt;
  if (suffix) *suffix = name.substr(static_cast<size_t>(end + 1 - name.data()));
  return pid;
}

std::string EncodeOwner(const TemporaryOwner& owner) {
  return "mrlocal temporary\npid " + std::to_string(owner.pid) + " start " +
         std::to_string(owner.start_ticks) + "\n";
}

std::optional<TemporaryOwner> DecodeOwner(std::string_view text) {
  std::istringstream in{std::string(text)};
  std::string magic1, magic2, pid_key, start_key;
  TemporaryOwner o;
  if (!(in >> magic1 >> magic2 >> pid_key >> o.pid >> start_key >> o.start_ticks) ||
      magic1 != "mrlocal" || magic2 != "temporary" || pid_key != "pid" || start_key != "start" ||
      o.pid <= 0)
    return std::nullopt;
  return o;
}

bool OwnerGone(const TemporaryOwner& owner, const timespec& changed) {
  if (owner.pid <= 0) return false;
  const std::optional<ProcStat> st = ReadProcStat(owner.pid);
  // No /proc, or one that hides other users' processes: only a PID that names no process
  // at all is surely gone.
  if (!st) return ::kill(owner.pid, 0) != 0 && errno == ESRCH;
  if (st->zombie) return true;
  if (st->start_ticks == 0) return false;  // an unreadable stat line tells nothing
  if (owner.start_ticks != 0) return st->start_ticks != owner.start_ticks;
  return StartedAfter(st->start_ticks, changed);
}

std::optional<timespec> ChangeTime(const fs::path& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) return std::nullopt;
  return st.st_ctim;
}

}  // namespace mrlocal
