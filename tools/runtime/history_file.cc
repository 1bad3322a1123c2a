#include "tools/runtime/history_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>
#include <system_error>

#include "engine/atomic_file.h"
#include "engine/one_line.h"
#include "tools/runtime/user_data_path.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;

// 3: the kNN estimator's observations too ("knn"). 2: the fitted model and the
// observations it is fitted to (AppObservations). 1: the model only, as worst cases that
// only grew; still read, its models kept until each app's next job refits them.
constexpr int kVersion = 3;

// The model's doubles by their names in the file, in the order they are written.
struct Field {
  const char* name;
  double AppModel::*member;
};
constexpr Field kFields[] = {
    {"alpha", &AppModel::alpha},
    {"map_fixed_s", &AppModel::map_fixed_s},
    {"map_s_per_unit", &AppModel::map_s_per_unit},
    {"reduce_fixed_s", &AppModel::reduce_fixed_s},
    {"reduce_s_per_unit", &AppModel::reduce_s_per_unit},
    {"reduce_skew", &AppModel::reduce_skew},
    {"shuffle_fixed_units", &AppModel::shuffle_fixed_units},  // version 2 on
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

// Each [units, value] pair of `array` (at most the newest `limit`), or what is wrong
// ("<index>: <what>").
Result<std::vector<AffinePoint>> ParsePoints(const nlohmann::json& array, size_t limit) {
  std::vector<AffinePoint> points;
  for (const nlohmann::json& pair : array) {
    const size_t i = points.size();
    if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number() || !pair[1].is_number())
      return Status::InvalidArgument(std::to_string(i) + ": not a pair of numbers");
    const AffinePoint p{pair[0].get<double>(), pair[1].get<double>()};
    if (!std::isfinite(p.units) || p.units < 0 || !std::isfinite(p.value) || p.value < 0)
      return Status::InvalidArgument(std::to_string(i) + ": not finite non-negative numbers");
    points.push_back(p);
  }
  if (points.size() > limit) points.erase(points.begin(), points.end() - limit);
  return points;
}

// AppObservations from its JSON object; the error is "<field>: <what>".
Result<AppObservations> ParseObservations(const nlohmann::json& obj) {
  if (!obj.is_object()) return Status::InvalidArgument("not an object");
  AppObservations o;
  const std::pair<const char*, std::vector<AffinePoint>*> lists[] = {
      {"maps", &o.maps}, {"reduces", &o.reduces}, {"shuffles", &o.shuffles}};
  for (auto& [key, value] : obj.items()) {
    // The binding by an init-capture: clang 14 cannot capture a structured binding.
    auto list = std::find_if(std::begin(lists), std::end(lists),
                             [&k = key](auto& l) { return k == l.first; });
    if (list != std::end(lists)) {
      if (!value.is_array()) return Status::InvalidArgument(key + ": not an array");
      const size_t limit = key == "shuffles" ? kMaxJobObservations : kMaxTaskObservations;
      auto points = ParsePoints(value, limit);
      if (!points.ok()) return points.status().WithContext(key + ".");
      *list->second = std::move(points).value();
    } else if (key == "skews") {
      if (!value.is_array()) return Status::InvalidArgument("skews: not an array");
      for (const nlohmann::json& v : value) {
        if (!v.is_number() || !(v.get<double>() >= 1) || !std::isfinite(v.get<double>()))
          return Status::InvalidArgument("skews: " + v.dump() + " is not a number >= 1");
        o.skews.push_back(v.get<double>());
      }
      if (o.skews.size() > kMaxJobObservations)
        o.skews.erase(o.skews.begin(), o.skews.end() - kMaxJobObservations);
    } else {
      return Status::InvalidArgument(key + ": unknown key");
    }
  }
  return o;
}

// The estimate of one app from its JSON object in a file of `version`; the error is
// "<field>: <what>" with the field relative to the app.
Result<AppEstimate> ParseApp(const nlohmann::json& obj, int version) {
  for (auto& [key, value] : obj.items()) {
    const bool known = key == "jobs" || key == "source" ||
                       (version >= 2 && key == "observations") ||
                       std::any_of(std::begin(kFields), std::end(kFields),
                                   [&k = key](const Field& f) { return k == f.name; });
    if (!known) return Status::InvalidArgument(key + ": unknown key");
  }
  AppEstimate e;
  for (const Field& f : kFields) {
    auto v = obj.find(f.name);
    if (v == obj.end() && version == 1 && f.member == &AppModel::shuffle_fixed_units) continue;
    if (v == obj.end()) return Status::InvalidArgument(std::string(f.name) + ": missing");
    if (!v->is_number()) return Status::InvalidArgument(std::string(f.name) + ": not a number");
    e.model.*f.member = v->get<double>();
    if (std::string bad = CheckDouble(f.name, e.model.*f.member); !bad.empty())
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
  if (auto o = obj.find("observations"); o != obj.end()) {
    auto observations = ParseObservations(*o);
    if (!observations.ok()) return observations.status().WithContext("observations.");
    e.observations = std::move(observations).value();
  }
  return e;
}

nlohmann::ordered_json PointsJson(const std::vector<AffinePoint>& points) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (const AffinePoint& p : points) a.push_back({p.units, p.value});
  return a;
}

nlohmann::ordered_json ObservationsJson(const AppObservations& o) {
  return {{"maps", PointsJson(o.maps)},
          {"reduces", PointsJson(o.reduces)},
          {"shuffles", PointsJson(o.shuffles)},
          {"skews", o.skews}};
}

// One app's kNN observations from its JSON object (REQUIRES: an object); the error is
// "<field>: <what>".
Result<KnnAppObservations> ParseKnnApp(const nlohmann::json& obj) {
  KnnAppObservations app;
  for (auto& [key, value] : obj.items()) {
    if (key != "maps" && key != "reduces") return Status::InvalidArgument(key + ": unknown key");
    if (!value.is_array()) return Status::InvalidArgument(key + ": not an array");
    const TaskKind kind = key == "maps" ? TaskKind::kMap : TaskKind::kReduce;
    for (size_t i = 0; i < value.size(); ++i) {
      const nlohmann::json& v = value[i];
      const std::string at = key + "." + std::to_string(i);
      if (!v.is_array() || v.size() != 4 ||
          !std::all_of(v.begin(), v.end(), [](const nlohmann::json& x) { return x.is_number(); }))
        return Status::InvalidArgument(at + ": not [units, slot speed, node tasks, seconds]");
      if (!v[2].is_number_unsigned() || v[2].get<uint64_t>() > INT32_MAX)
        return Status::InvalidArgument(at + ": node tasks " + v[2].dump() +
                                       " is not a non-negative integer");
      const KnnObservation o{v[0].get<double>(), v[1].get<double>(), v[2].get<int>(),
                             v[3].get<double>()};
      if (!ValidObservation(o))
        return Status::InvalidArgument(at + ": not finite non-negative numbers with a speed > 0");
      AddObservation(app, kind, o);  // the newest kMaxKnnObservations
    }
  }
  return app;
}

nlohmann::ordered_json KnnJson(const KnnAppObservations& app) {
  nlohmann::ordered_json a = nlohmann::ordered_json::object();
  for (TaskKind kind : {TaskKind::kMap, TaskKind::kReduce}) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const KnnObservation& o : app.of(kind))
      list.push_back({o.units, o.slot_speed, o.node_tasks, o.seconds});
    a[kind == TaskKind::kMap ? "maps" : "reduces"] = std::move(list);
  }
  return a;
}

// What SaveHistory must not write: what LoadHistory would refuse; "" when none.
std::string CheckEstimate(const AppEstimate& e) {
  std::string bad = CheckSource(e.source);
  for (const Field& f : kFields)
    if (bad.empty()) bad = CheckDouble(f.name, e.model.*f.member);
  const AppObservations& o = e.observations;
  for (const auto* points : {&o.maps, &o.reduces, &o.shuffles})
    for (const AffinePoint& p : *points)
      if (bad.empty() &&
          !(std::isfinite(p.units) && p.units >= 0 && std::isfinite(p.value) && p.value >= 0))
        bad = "observations: not finite non-negative numbers";
  for (double skew : o.skews)
    if (bad.empty() && !(std::isfinite(skew) && skew >= 1)) bad = "observations.skews: below 1";
  return bad;
}

// "history file 'F' is corrupt (WHAT): ignored", from LoadHistory's "... is corrupt: WHAT".
std::string CorruptWarning(const Status& s) {
  std::string m = s.message();
  const std::string tag = " is corrupt: ";
  const size_t at = m.find(tag);
  if (at == std::string::npos) return m + ": ignored";
  return m.substr(0, at) + " is corrupt (" + m.substr(at + tag.size()) + "): ignored";
}

}  // namespace

fs::path DefaultHistoryPath() { return UserDataPath("MRLOCAL_HISTORY", "history.json"); }

Result<JobHistory> LoadHistory(const fs::path& path, int* version_read) {
  Result<HistoryContents> c = LoadHistoryFile(path, version_read);
  if (!c.ok()) return c.status();
  return std::move(c->history);
}

Status SaveHistory(const JobHistory& history, const fs::path& path) {
  return SaveHistoryFile({history, {}}, path);
}

Result<HistoryContents> LoadHistoryFile(const fs::path& path, int* version_read) {
  Result<std::string> text = ReadHistoryFile(path);
  if (!text.ok()) return text.status();
  auto corrupt = [&](const std::string& what) {  // `what` may quote keys with line breaks
    return Status::InvalidArgument("history file '" + path.string() +
                                   "' is corrupt: " + OneLine(what));
  };
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(*text);
  } catch (const nlohmann::json::exception& e) {
    return corrupt(ParseErrorText(e));
  }
  if (!doc.is_object()) return corrupt("not a JSON object");
  // A newer mrlocal's file is not corrupt, and not ours to set aside or rewrite: an error
  // that Open and Record pass on, the file untouched. Checked before the keys, which a
  // newer version may have added.
  auto version = doc.find("version");
  if (version != doc.end() && version->is_number_integer() && version->get<int64_t>() > kVersion)
    return Status::Corruption("history file '" + path.string() +
                              "' is from a newer mrlocal (version " + version->dump() +
                              "; this one reads 1 to " + std::to_string(kVersion) +
                              "): left as it is; give another with --history");
  for (auto& [key, value] : doc.items())
    if (key != "version" && key != "apps" && key != "knn") return corrupt(key + ": unknown key");
  if (version == doc.end()) return corrupt("version: missing");
  if (!version->is_number_integer() || version->get<int64_t>() < 1)
    return corrupt("version: " + version->dump() + " is not 1 to " + std::to_string(kVersion));
  const int v = static_cast<int>(version->get<int64_t>());
  auto apps = doc.find("apps");
  if (apps == doc.end()) return corrupt("apps: missing");
  if (!apps->is_object()) return corrupt("apps: not an object");
  HistoryContents c;
  for (auto& [app, fields] : apps->items()) {
    if (app.empty()) return corrupt("apps: an app with an empty name");
    if (!fields.is_object()) return corrupt("apps." + app + ": not an object");
    Result<AppEstimate> e = ParseApp(fields, v);
    if (!e.ok()) return corrupt("apps." + app + "." + e.status().message());
    c.history.Set(app, std::move(*e));
  }
  if (auto knn = doc.find("knn"); knn != doc.end()) {
    if (v < 3) return corrupt("knn: not in a file of version " + std::to_string(v));
    if (!knn->is_object()) return corrupt("knn: not an object");
    for (auto& [app, fields] : knn->items()) {
      if (app.empty()) return corrupt("knn: an app with an empty name");
      if (!fields.is_object()) return corrupt("knn." + app + ": not an object");
      Result<KnnAppObservations> o = ParseKnnApp(fields);
      if (!o.ok()) return corrupt("knn." + app + "." + o.status().message());
      c.knn[app] = std::move(o).value();
    }
  }
  if (version_read) *version_read = v;
  return c;
}

Status SaveHistoryFile(const HistoryContents& contents, const fs::path& path) {
  const JobHistory& history = contents.history;
  // Never write what LoadHistory would refuse (a NaN given to Set would come back as null).
  for (auto& [app, e] : history.apps()) {
    std::string bad = CheckEstimate(e);
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
  nlohmann::ordered_json apps = nlohmann::ordered_json::object();
  for (auto& [app, e] : history.apps()) {
    nlohmann::ordered_json& a = apps[app];
    for (const Field& f : kFields) a[f.name] = e.model.*f.member;
    a["jobs"] = e.jobs;
    a["source"] = e.source;
    a["observations"] = ObservationsJson(e.observations);
  }
  nlohmann::ordered_json knn = nlohmann::ordered_json::object();
  for (auto& [app, o] : contents.knn) {
    const auto valid = [](const std::vector<KnnObservation>& v) {
      return std::all_of(v.begin(), v.end(), ValidObservation);
    };
    if (app.empty() || !valid(o.maps) || !valid(o.reduces))
      return Status::InvalidArgument("cannot write history file '" + path.string() + "': knn." +
                                     app + ": not finite non-negative numbers with a speed > 0");
    knn[app] = KnnJson(o);
  }
  const nlohmann::ordered_json doc = {
      {"version", kVersion}, {"apps", std::move(apps)}, {"knn", std::move(knn)}};
  // nlohmann writes doubles in their shortest round-trip form.
  return WriteFileAtomically(path.string(), doc.dump(2) + "\n").WithContext("history file: ");
}

Result<HistoryFile> HistoryFile::Open(const fs::path& path, std::ostream& err,
                                      bool corrupt_is_error) {
  HistoryFile f;
  f.path_ = path;
  RemoveStaleTemporaries(path.string());  // of a run killed while it saved the file
  int version = kVersion;
  Result<HistoryContents> loaded = LoadHistoryFile(path, &version);
  if (loaded.ok()) {
    f.history_ = std::move(loaded->history);
    f.knn_ = std::move(loaded->knn);
    if (version < 2)
      err << "mrlocal: note: history file '" << path.string()
          << "' is from an older mrlocal (worst cases only): each app's estimate is refitted "
             "at its next finished job; 'mrlocal history reset' discards it\n";
  } else if (loaded.status().code() == Status::Code::kInvalidArgument && !corrupt_is_error) {
    err << "mrlocal: warning: " << CorruptWarning(loaded.status()) << "\n";
  } else if (loaded.status().code() != Status::Code::kNotFound) {
    return loaded.status();
  }
  return f;
}

Status HistoryFile::Record(const JobObservation& job, const KnnAppObservations& knn,
                           std::ostream& out, std::ostream& err, bool quiet) {
  HistoryContents current;
  Result<HistoryContents> loaded = LoadHistoryFile(path_);
  if (loaded.ok()) {
    current = std::move(loaded).value();
  } else if (loaded.status().code() == Status::Code::kInvalidArgument) {
    // Kept for whoever wants to see what went wrong; never read again.
    fs::path aside = path_;
    aside += ".corrupt";
    std::error_code ec;
    fs::rename(path_, aside, ec);
    if (ec)
      return Status::IoError("cannot rename corrupt history file '" + path_.string() + "' to '" +
                             aside.string() + "': " + ec.message());
    err << "mrlocal: history: the corrupt file was kept as '" << aside.string() << "'\n";
  } else if (loaded.status().code() != Status::Code::kNotFound) {
    return loaded.status();
  }
  current.history.Record(job);
  if (!knn.maps.empty() || !knn.reduces.empty()) {
    KnnAppObservations& app = current.knn[job.app];
    for (TaskKind kind : {TaskKind::kMap, TaskKind::kReduce})
      for (const KnnObservation& o : knn.of(kind)) AddObservation(app, kind, o);
  }
  Status saved = SaveHistoryFile(current, path_);
  if (!saved.ok()) return saved;
  history_ = std::move(current.history);
  knn_ = std::move(current.knn);
  if (!quiet) out << "mrlocal: history: " << job.app << " updated in " << path_.string() << "\n";
  return Status::OK();
}

}  // namespace mrlocal
