#include "sched/estimate/job_history.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <sstream>
#include <system_error>

#include "engine/atomic_file.h"
#include "sched/report/json_writer.h"
#include "sched/estimate/user_data_path.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;

constexpr int kVersion = 1;

// The AppEstimate doubles by their names in the file, in the order they are written.
struct Field {
  const char* name;
  double AppEstimate::*member;
};
constexpr Field kFields[] = {
    {"alpha", &AppEstimate::alpha},
    {"map_fixed_s", &AppEstimate::map_fixed_s},
    {"map_s_per_unit", &AppEstimate::map_s_per_unit},
    {"reduce_fixed_s", &AppEstimate::reduce_fixed_s},
    {"reduce_s_per_unit", &AppEstimate::reduce_s_per_unit},
    {"reduce_skew", &AppEstimate::reduce_skew},
};
constexpr const char* kSources[] = {"history", "probe", "model", "declared"};

// What is wrong with one of e's doubles ("reduce_skew: 0.5 is below 1"), or "".
std::string CheckDouble(const char* name, double v) {
  std::ostringstream what;
  if (!std::isfinite(v) || v < 0) {
    what << name << ": " << v << " is not a finite non-negative number";
  } else if (std::string_view(name) == "reduce_skew" && v < 1) {
    what << name << ": " << v << " is below 1";
  }
  return what.str();
}

std::string CheckSource(const std::string& source) {
  for (const char* s : kSources)
    if (source == s) return "";
  return "source: '" + source + "' is not one of history, probe, model";
}

// The whole file, or IoError naming it with the OS's reason.
Result<std::string> ReadHistoryFile(const fs::path& path) {
  auto fail = [&](int err) {
    return Status::IoError("cannot read history file '" + path.string() +
                           "': " + std::strerror(err));
  };
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return Status::NotFound("no history file '" + path.string() + "'");
    return fail(errno);
  }
  struct stat st;
  std::string text;
  int err = 0;
  if (::fstat(fd, &st) != 0) {
    err = errno;
  } else if (S_ISDIR(st.st_mode)) {
    err = EISDIR;  // open(O_RDONLY) succeeds on a directory; say why before read() does
  } else {
    char buf[1 << 16];
    for (;;) {
      const ssize_t n = ::read(fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) err = errno;
      if (n <= 0) break;
      text.append(buf, static_cast<size_t>(n));
    }
  }
  ::close(fd);
  if (err != 0) return fail(err);
  return text;
}

// One line: nlohmann's message without its "[json.exception....] " tag.
std::string ParseErrorText(const nlohmann::json::exception& e) {
  std::string what = e.what();
  if (const size_t tag = what.find("] ");
      what.rfind("[json.exception", 0) == 0 && tag != std::string::npos)
    what.erase(0, tag + 2);
  std::replace(what.begin(), what.end(), '\n', ' ');
  std::replace(what.begin(), what.end(), '\r', ' ');
  return what;
}

// The estimate of one app from its JSON object; the error is "<field>: <what>" with the
// field relative to the app.
Result<AppEstimate> ParseApp(const nlohmann::json& obj) {
  for (auto& [key, value] : obj.items()) {
    const bool known = key == "jobs" || key == "source" ||
                       std::any_of(std::begin(kFields), std::end(kFields),
                                   [&](const Field& f) { return key == f.name; });
    if (!known) return Status::InvalidArgument(key + ": unknown key");
  }
  AppEstimate e;
  for (const Field& f : kFields) {
    auto v = obj.find(f.name);
    if (v == obj.end()) return Status::InvalidArgument(std::string(f.name) + ": missing");
    if (!v->is_number()) return Status::InvalidArgument(std::string(f.name) + ": not a number");
    e.*f.member = v->get<double>();
    if (std::string bad = CheckDouble(f.name, e.*f.member); !bad.empty())
      return Status::InvalidArgument(bad);
  }
  auto jobs = obj.find("jobs");
  if (jobs == obj.end()) return Status::InvalidArgument("jobs: missing");
  if (!jobs->is_number_unsigned())
    return Status::InvalidArgument("jobs: not a non-negative integer");
  e.jobs = jobs->get<uint64_t>();
  auto source = obj.find("source");
  if (source == obj.end()) return Status::InvalidArgument("source: missing");
  if (!source->is_string()) return Status::InvalidArgument("source: not a string");
  e.source = source->get<std::string>();
  if (std::string bad = CheckSource(e.source); !bad.empty()) return Status::InvalidArgument(bad);
  return e;
}

// Seconds of work at speed 1.0 and input units of one valid task sample.
struct Work {
  double units;
  double w;
};

std::vector<Work> ValidWork(const std::vector<TaskSample>& samples) {
  std::vector<Work> out;
  out.reserve(samples.size());
  for (const TaskSample& s : samples) {
    const double w = s.seconds * s.speed;
    if (!std::isfinite(s.units) || s.units < 0 || !std::isfinite(s.seconds) || s.seconds < 0 ||
        !std::isfinite(s.speed) || s.speed <= 0 || !std::isfinite(w))
      continue;
    out.push_back({s.units, w});
  }
  return out;
}

// The smallest fixed part a >= 0 (up to an ulp) with a + c·u >= w as evaluated in doubles,
// which is how AppEstimate::MapSeconds evaluates it: w - c·u alone can round one ulp low.
double FixedPartCovering(double w, double c, double u) {
  const double p = c * u;
  if (p >= w) return 0;
  double a = w - p;
  while (a + p < w) a = std::nextafter(a, INFINITY);
  return a;
}

// Grows (fixed, per_unit) to cover `tasks` (non-empty). The per-unit cost comes from the
// full-size tasks only (units at least half the largest), so a tiny last split, whose time
// is mostly fixed cost, does not inflate it; the fixed part then covers every task against
// the grown per-unit cost. Fitting against the new cost rather than this job's own c is
// tighter and still an upper bound, since new cost >= c.
void GrowAffine(const std::vector<Work>& tasks, double& fixed, double& per_unit) {
  double big = 0;
  for (const Work& t : tasks) big = std::max(big, t.units);
  double c = 0;
  for (const Work& t : tasks)
    if (t.units > 0 && t.units >= big / 2 && std::isfinite(t.w / t.units))
      c = std::max(c, t.w / t.units);
  per_unit = std::max(per_unit, c);
  double a = 0;
  for (const Work& t : tasks) a = std::max(a, FixedPartCovering(t.w, per_unit, t.units));
  fixed = std::max(fixed, a);
}

}  // namespace

fs::path JobHistory::DefaultPath() { return UserDataPath("MRLOCAL_HISTORY", "history.json"); }

Result<JobHistory> JobHistory::Load(const fs::path& path) {
  Result<std::string> text = ReadHistoryFile(path);
  if (!text.ok()) return text.status();
  auto corrupt = [&](const std::string& what) {
    return Status::InvalidArgument("history file '" + path.string() + "' is corrupt: " + what);
  };
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(*text);
  } catch (const nlohmann::json::exception& e) {
    return corrupt(ParseErrorText(e));
  }
  if (!doc.is_object()) return corrupt("not a JSON object");
  for (auto& [key, value] : doc.items())
    if (key != "version" && key != "apps") return corrupt(key + ": unknown key");
  auto version = doc.find("version");
  if (version == doc.end()) return corrupt("version: missing");
  if (!version->is_number_integer() || version->get<int64_t>() != kVersion)
    return corrupt("version: " + version->dump() + " is not " + std::to_string(kVersion));
  auto apps = doc.find("apps");
  if (apps == doc.end()) return corrupt("apps: missing");
  if (!apps->is_object()) return corrupt("apps: not an object");
  JobHistory h;
  for (auto& [app, fields] : apps->items()) {
    if (app.empty()) return corrupt("apps: an app with an empty name");
    if (!fields.is_object()) return corrupt("apps." + app + ": not an object");
    Result<AppEstimate> e = ParseApp(fields);
    if (!e.ok()) return corrupt("apps." + app + "." + e.status().message());
    h.apps_[app] = std::move(*e);
  }
  return h;
}

Status JobHistory::Save(const fs::path& path) const {
  // Never write what Load would refuse (a NaN given to Set would come back as null).
  for (auto& [app, e] : apps_) {
    std::string bad = CheckSource(e.source);
    for (const Field& f : kFields)
      if (bad.empty()) bad = CheckDouble(f.name, e.*f.member);
    if (app.empty()) bad = "an app with an empty name";
    if (!bad.empty())
      return Status::InvalidArgument("cannot write history file '" + path.string() + "': apps." +
                                     app + "." + bad);
  }
  std::error_code ec;
  if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
  if (ec)
    return Status::IoError("cannot create directory '" + path.parent_path().string() +
                           "' for history file '" + path.string() + "': " + ec.message());
  std::ostringstream out;
  JsonWriter w(out, /*pretty=*/true);  // doubles in their shortest round-trip form
  w.BeginObject().Key("version").Int(kVersion).Key("apps").BeginObject();
  for (auto& [app, e] : apps_) {
    w.Key(app).BeginObject();
    for (const Field& f : kFields) w.Key(f.name).Double(e.*f.member);
    w.Key("jobs").Uint(e.jobs).Key("source").String(e.source).EndObject();
  }
  w.EndObject().EndObject();
  out << "\n";
  return WriteFileAtomically(path.string(), out.str()).WithContext("history file: ");
}

void JobHistory::Record(const JobObservation& job) {
  const std::vector<Work> maps = ValidWork(job.maps);
  if (maps.empty()) return;
  const std::vector<Work> reduces = ValidWork(job.reduces);
  const double ratio = job.shuffle_units / job.input_units;
  const bool shows_alpha = job.input_units > 0 && std::isfinite(ratio) && ratio >= 0;
  double sum = 0, largest = 0;
  for (const Work& r : reduces) {
    sum += r.units;
    largest = std::max(largest, r.units);
  }
  const bool shows_skew = sum > 0 && std::isfinite(sum);

  AppEstimate& e = apps_[job.app];
  if (e.source == "probe") {
    // Replace what this job shows; keep the probe's guesses for what it cannot show.
    e.map_fixed_s = 0;
    e.map_s_per_unit = 0;
    if (!reduces.empty()) {
      e.reduce_fixed_s = 0;
      e.reduce_s_per_unit = 0;
    }
    if (shows_alpha) e.alpha = 0;
    if (shows_skew) e.reduce_skew = 1;
    e.jobs = 0;
  }
  e.source = "history";
  e.jobs += 1;

  GrowAffine(maps, e.map_fixed_s, e.map_s_per_unit);
  if (!reduces.empty()) GrowAffine(reduces, e.reduce_fixed_s, e.reduce_s_per_unit);
  if (shows_alpha) e.alpha = std::max(e.alpha, ratio);
  // max/mean >= 1 in exact arithmetic; the max with the old skew (>= 1) absorbs rounding.
  if (shows_skew)
    e.reduce_skew = std::max(e.reduce_skew, largest / (sum / static_cast<double>(reduces.size())));
}

const AppEstimate* JobHistory::Find(const std::string& app) const {
  auto it = apps_.find(app);
  return it == apps_.end() ? nullptr : &it->second;
}

JobObservation ObserveJob(const JobState& job, const ClusterState& state, uint64_t shuffle_units) {
  JobObservation o;
  o.app = job.spec.app;
  o.shuffle_units = static_cast<double>(shuffle_units);
  auto sample = [&](const TaskState& t, std::vector<TaskSample>& out) {
    if (t.status != TaskStatus::kDone) return;
    // A task without a known slot cannot be normalized to speed 1.0: leave it out.
    if (t.slot < 0 || static_cast<size_t>(t.slot) >= state.slots.size()) return;
    out.push_back({static_cast<double>(t.input_bytes), Seconds(t.end - t.start),
                   state.slots[static_cast<size_t>(t.slot)].info.speed});
  };
  for (const TaskState& m : job.maps) {
    o.input_units += static_cast<double>(m.input_bytes);
    sample(m, o.maps);
  }
  for (const TaskState& r : job.reduces) sample(r, o.reduces);
  return o;
}

}  // namespace mrlocal
