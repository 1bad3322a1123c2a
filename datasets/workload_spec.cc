#include "datasets/workload_spec.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "datasets/graph_generator.h"
#include "datasets/workload_file.h"
#include "engine/one_line.h"
#include "sched/core/units.h"

namespace mrlocal {
namespace {

using nlohmann::json;

// Queues and announced changes a spec may declare: far past the paper's 80 queues, and
// bounded so that a typo cannot make a decision pass over millions.
constexpr size_t kMaxQueues = 10'000;
constexpr size_t kMaxEvents = 1'000'000;

// "jobs[3]" + "arrival_s" -> "jobs[3].arrival_s".
std::string Join(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

// A value as the user wrote it, for messages; long values are cut.
std::string Got(const json& v) {
  std::string s = v.dump();
  if (s.size() > 40) s = s.substr(0, 37) + "...";
  return "(got " + s + ")";
}

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
      diag = up;
    }
  }
  return row[b.size()];
}

// 1-based line and column of the 0-based byte offset `at`.
std::string LineCol(std::string_view text, size_t at) {
  at = std::min(at, text.size());
  size_t line = 1, line_start = 0;
  for (size_t i = 0; i < at; ++i)
    if (text[i] == '\n') ++line, line_start = i + 1;
  return std::to_string(line) + ":" + std::to_string(at - line_start + 1);
}

// Every error of one spec: "<source>: <field path>: <what>".
class Reader {
 public:
  // check_files: input files must be readable now (a spec read from a file, whose inputs
  // are on this machine), not just named.
  Reader(std::string source, bool check_files)
      : source_(std::move(source)), check_files_(check_files) {}

  Status Fail(const std::string& path, const std::string& what) const {
    return Status::InvalidArgument(source_ + ": " + (path.empty() ? "" : path + ": ") + what);
  }

  // Refuses keys that are not in `known`, suggesting the nearest one.
  Status CheckKeys(const json& obj, const std::string& path,
                   const std::vector<std::string_view>& known) const {
    for (const auto& [key, value] : obj.items()) {
      if (std::find(known.begin(), known.end(), key) != known.end()) continue;
      std::string_view best;
      size_t best_d = 3;  // suggest only close keys
      for (std::string_view k : known) {
        const size_t d = EditDistance(key, k);
        if (d < best_d) best = k, best_d = d;
      }
      std::string what = "unknown key";
      if (!best.empty()) {
        what += " (did you mean '" + std::string(best) + "'?)";
      } else {
        what += " (known:";
        for (std::string_view k : known)
          what += std::string(what.back() == ':' ? " " : ", ") + std::string(k);
        what += ")";
      }
      return Fail(Join(path, key), what);
    }
    return Status::OK();
  }

  Status NeedObject(const json& v, const std::string& path) const {
    return v.is_object() ? Status::OK() : Fail(path, "must be a JSON object " + Got(v));
  }

  Result<double> Number(const json& v, const std::string& path, bool zero_ok) const {
    const std::string want =
        zero_ok ? "must be a non-negative number " : "must be a positive number ";
    if (!v.is_number()) return Fail(path, want + Got(v));
    const double x = v.get<double>();
    if (!std::isfinite(x) || x < 0 || (x == 0 && !zero_ok)) return Fail(path, want + Got(v));
    return x;
  }

  Result<uint64_t> Integer(const json& v, const std::string& path, uint64_t min,
                           uint64_t max = ~uint64_t{0}) const {
    const std::string want =
        max == ~uint64_t{0}
            ? "must be an integer >= " + std::to_string(min) + " "
            : "must be an integer from " + std::to_string(min) + " to " + std::to_string(max) + " ";
    uint64_t x;
    if (v.is_number_unsigned()) {
      x = v.get<uint64_t>();
    } else if (v.is_number_float()) {  // 1e6 is a float in JSON; fine when it is whole
      const double d = v.get<double>();
      if (!(d >= 0 && d < 0x1p64 && d == std::floor(d))) return Fail(path, want + Got(v));
      x = static_cast<uint64_t>(d);
    } else {  // negative integers, strings, booleans...
      return Fail(path, want + Got(v));
    }
    if (x < min || x > max) return Fail(path, want + Got(v));
    return x;
  }

  // Bytes as an integer, or a string with a unit ("64MiB").
  Result<uint64_t> Size(const json& v, const std::string& path, bool zero_ok) const {
    uint64_t x;
    if (v.is_string()) {
      Result<uint64_t> r = ParseSize(v.get<std::string>());
      if (!r.ok()) return Fail(path, r.status().message());
      x = *r;
    } else if (v.is_number()) {
      Result<uint64_t> r = Integer(v, path, 0);
      if (!r.ok())
        return Fail(path, "must be a size: bytes, or a string such as \"64MiB\" " + Got(v));
      x = *r;
    } else {
      return Fail(path, "must be a size: bytes, or a string such as \"64MiB\" " + Got(v));
    }
    if (x == 0 && !zero_ok) return Fail(path, "must be a positive size " + Got(v));
    return x;
  }

  Result<std::string> String(const json& v, const std::string& path) const {
    if (!v.is_string() || v.get_ref<const std::string&>().empty())
      return Fail(path, "must be a non-empty string " + Got(v));
    return v.get<std::string>();
  }

  const std::string& source() const { return source_; }
  bool check_files() const { return check_files_; }

 private:
  std::string source_;
  bool check_files_;
};

const json* Find(const json& obj, std::string_view key) {
  auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

// Credits: a budget, a bid or an addition, from 0 to kMaxCredits.
Result<double> Credits(const Reader& r, const json& v, const std::string& path) {
  const std::string want =
      "must be a number of credits from 0 to " + FormatNumber(kMaxCredits) + " ";
  if (!v.is_number()) return r.Fail(path, want + Got(v));
  const double x = v.get<double>();
  if (!(x >= 0 && x <= kMaxCredits)) return r.Fail(path, want + Got(v));
  return x;
}

// Assigns *out from an optional key through a reader returning Result<T>.
#define MRLOCAL_READ_INTO(out, expr)  \
  do {                                \
    auto _r = (expr);                 \
    if (!_r.ok()) return _r.status(); \
    out = std::move(*_r);             \
  } while (0)

// nlohmann keeps the last of repeated keys silently; a repeated key is most often a
// mistake, so the parse callback finds them, with the path of the second one.
class DuplicateKeyFinder {
 public:
  bool operator()(int /*depth*/, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
        frames_.push_back({false, 0, {}, {}});
        break;
      case json::parse_event_t::array_start:
        frames_.push_back({true, 0, {}, {}});
        break;
      case json::parse_event_t::key: {
        Frame& f = frames_.back();
        f.key = parsed.get<std::string>();
        if (!f.keys.insert(f.key).second && duplicate_.empty()) duplicate_ = Path();
        break;
      }
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        frames_.pop_back();
        [[fallthrough]];
      case json::parse_event_t::value:
        if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
        break;
    }
    return true;
  }
  // The path of the first repeated key; empty when none.
  const std::string& duplicate() const { return duplicate_; }

 private:
  struct Frame {
    bool array;
    size_t index;
    std::string key;
    std::set<std::string> keys;
  };
  std::string Path() const {
    std::string p;
    for (const Frame& f : frames_)
      p = f.array ? p + "[" + std::to_string(f.index) + "]" : Join(p, f.key);
    return p;
  }
  std::vector<Frame> frames_;
  std::string duplicate_;
};

// `dir` as an absolute path, for messages ("" is the working directory).
std::string AbsoluteDir(std::string_view dir) {
  std::error_code ec;
  std::filesystem::path abs =
      std::filesystem::absolute(dir.empty() ? std::filesystem::path(".") : dir, ec);
  if (ec) return std::string(dir);
  std::string s = abs.lexically_normal().string();
  if (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

// A file a spec names, relative to its directory unless absolute, and how messages show it.
struct SpecFile {
  std::string path;
  std::string shown;  // "'a.txt' (relative to /data)"
};
SpecFile ResolveFile(std::string_view base_dir, const std::string& f) {
  const std::filesystem::path p(f);
  const bool as_is = base_dir.empty() || p.is_absolute();
  return {as_is ? f : (std::filesystem::path(base_dir) / p).lexically_normal().string(),
          "'" + f + "'" + (p.is_absolute() ? "" : " (relative to " + AbsoluteDir(base_dir) + ")")};
}

Result<InputSpec> ParseInput(const Reader& r, const json& v, const std::string& path,
                             const AppSchema& app, std::string_view base_dir) {
  MRLOCAL_RETURN_IF_ERROR(r.NeedObject(v, path));
  MRLOCAL_RETURN_IF_ERROR(
      r.CheckKeys(v, path, {"files", "generate", "size", "nodes", "edges", "seed"}));
  InputSpec in;
  const json* files = Find(v, "files");
  const json* generate = Find(v, "generate");
  if (files && generate) return r.Fail(path, "give \"files\" or \"generate\", not both");
  if (!files && !generate)
    return r.Fail(path,
                  "needs \"files\" (a list of paths) or \"generate\" (\"text\" or \"graph\")");
  if (files) {
    for (std::string_view key : {"size", "nodes", "edges", "seed"})
      if (Find(v, key)) return r.Fail(Join(path, key), "only generated inputs take it");
    const std::string fpath = Join(path, "files");
    if (!files->is_array() || files->empty())
      return r.Fail(fpath, "must be a non-empty list of paths " + Got(*files));
    in.kind = InputSpec::Kind::kFiles;
    for (size_t i = 0; i < files->size(); ++i) {
      const std::string ipath = fpath + "[" + std::to_string(i) + "]";
      std::string f;
      MRLOCAL_READ_INTO(f, r.String((*files)[i], ipath));
      const SpecFile file = ResolveFile(base_dir, f);
      in.files.push_back(file.path);
      if (!r.check_files()) continue;
      if (Status st = CheckReadableFile(file.path, file.shown); !st.ok())
        return r.Fail(ipath, st.message());
    }
    return in;
  }
  in.kind = InputSpec::Kind::kGenerated;
  const std::string gpath = Join(path, "generate");
  MRLOCAL_READ_INTO(in.generator, r.String(*generate, gpath));
  if (in.generator != "text" && in.generator != "graph")
    return r.Fail(gpath, "unknown generator '" + in.generator + "' (known: text, graph)");
  if (app.input == AppSchema::Input::kText && in.generator != "text")
    return r.Fail(gpath, app.name + " reads text: use \"text\"");
  if (app.input == AppSchema::Input::kGraph && in.generator != "graph")
    return r.Fail(gpath, app.name + " reads edge lists: use \"graph\"");
  if (const json* s = Find(v, "seed"))
    MRLOCAL_READ_INTO(in.seed, r.Integer(*s, Join(path, "seed"), 0));
  const json* size = Find(v, "size");
  const json* nodes = Find(v, "nodes");
  const json* edges = Find(v, "edges");
  if (size) MRLOCAL_READ_INTO(in.bytes, r.Size(*size, Join(path, "size"), false));
  if (in.generator == "text") {
    for (std::string_view key : {"nodes", "edges"})
      if (Find(v, key)) return r.Fail(Join(path, key), "only graph inputs take it");
    if (!size) return r.Fail(Join(path, "size"), "missing: a generated text needs its size");
    return in;
  }
  if (size && (nodes || edges))
    return r.Fail(path, "give a graph's \"size\" or its \"nodes\" and \"edges\", not both");
  if (size) {
    const GraphSize g = GraphForBytes(in.bytes);
    in.graph_nodes = g.nodes;
    in.graph_edges = g.edges;
    return in;
  }
  if (!nodes || !edges)
    return r.Fail(path, "a generated graph needs \"size\", or \"nodes\" and \"edges\"");
  MRLOCAL_READ_INTO(in.graph_nodes, r.Integer(*nodes, Join(path, "nodes"), 2, kMaxGraphNodes));
  MRLOCAL_READ_INTO(in.graph_edges, r.Integer(*edges, Join(path, "edges"), 1));
  in.bytes = GraphBytes(in.graph_nodes, in.graph_edges);
  return in;
}

// A number or a list of numbers, each > 0: one for every task, or one per task.
Result<std::vector<double>> ParseTaskTimes(const Reader& r, const json& v, const std::string& path,
                                           uint64_t tasks, std::string_view what) {
  std::vector<double> out;
  if (v.is_array()) {
    if (v.size() != 1 && v.size() != tasks)
      return r.Fail(path, std::to_string(v.size()) + " values for " + std::to_string(tasks) + " " +
                              std::string(what) + " (give one value for every task, or exactly " +
                              std::string(what) + " values)");
    for (size_t i = 0; i < v.size(); ++i) {
      double x;
      MRLOCAL_READ_INTO(x, r.Number(v[i], path + "[" + std::to_string(i) + "]", false));
      out.push_back(x);
    }
    return out;
  }
  double x;
  MRLOCAL_READ_INTO(x, r.Number(v, path, false));
  out.push_back(x);
  return out;
}

// The keys of a spec job: its own, then those of every app, in the order of `apps`.
std::vector<std::string_view> JobKeys(const AppSchemas& apps) {
  std::vector<std::string_view> keys = {"name",    "arrival_s",  "app",      "input",  "maps",
                                        "reduces", "deadline_s", "deadline", "goal_s", "goal",
                                        "weight",  "queue",      "bid",      "after"};
  for (const AppSchema& a : apps)
    for (const AppSchema::Field& f : a.fields)
      if (std::find(keys.begin(), keys.end(), f.key) == keys.end()) keys.push_back(f.key);
  for (std::string_view k : {"shuffle_bytes", "output_bytes", "shuffle_delay_s", "task_weights"})
    keys.push_back(k);
  return keys;
}

std::string AppNames(const AppSchemas& apps) {
  std::string names;
  for (const AppSchema& a : apps) names += (names.empty() ? "" : ", ") + a.name;
  return names;
}

const AppSchema* FindApp(const AppSchemas& apps, std::string_view name) {
  for (const AppSchema& a : apps)
    if (a.name == name) return &a;
  return nullptr;
}

// Refuses the fields of other apps that `job` has: "only pi jobs take samples".
Status RefuseOtherAppsFields(const Reader& r, const json& v, const std::string& path,
                             const AppSchema& app, const AppSchemas& apps) {
  std::vector<std::string_view> seen;
  for (const AppSchema& other : apps) {
    for (const AppSchema::Field& f : other.fields) {
      if (!Find(v, f.key) || std::find(seen.begin(), seen.end(), f.key) != seen.end()) continue;
      seen.push_back(f.key);
      auto mine = [&](const AppSchema::Field& g) { return g.key == f.key; };
      if (std::any_of(app.fields.begin(), app.fields.end(), mine)) continue;
      std::string takers;
      for (const AppSchema& a : apps)
        if (std::any_of(a.fields.begin(), a.fields.end(), mine))
          takers += (takers.empty() ? "" : " or ") + a.name;
      return r.Fail(Join(path, f.key), "only " + takers + " jobs take " + f.key);
    }
  }
  return Status::OK();
}

// The app's own fields of `job` into job->params.
Status ParseAppFields(const Reader& r, const json& v, const std::string& path, const AppSchema& app,
                      WorkloadJob* job) {
  for (const AppSchema::Field& f : app.fields) {
    const std::string at = Join(path, f.key);
    const json* value = Find(v, f.key);
    const bool per_reduce = f.kind == AppSchema::Field::Kind::kReduceSeconds;
    if (per_reduce && job->reduces == 0) {
      if (value) return r.Fail(at, "the job has no reduces (reduces is 0)");
      continue;
    }
    if (!value) return r.Fail(at, "missing: " + f.missing);
    switch (f.kind) {
      case AppSchema::Field::Kind::kCount: {
        uint64_t n = 0;
        MRLOCAL_READ_INTO(n, r.Integer(*value, at, 1));
        job->params.SetCount(f.key, n);
        break;
      }
      case AppSchema::Field::Kind::kMapSeconds:
      case AppSchema::Field::Kind::kReduceSeconds: {
        std::vector<double> seconds;
        MRLOCAL_READ_INTO(seconds,
                          ParseTaskTimes(r, *value, at, per_reduce ? job->reduces : job->maps,
                                         per_reduce ? "reduces" : "maps"));
        job->params.SetSeconds(f.key, std::move(seconds));
        break;
      }
    }
  }
  return Status::OK();
}

// One weight W_u > 0 per task of the job, its maps then its reduces. The count is checked
// against "maps", so the job must give it (an input's own split count is known only later).
Status ParseTaskWeights(const Reader& r, const json& v, const std::string& path, bool maps_given,
                        WorkloadJob* job) {
  const uint64_t tasks = uint64_t{job->maps} + job->reduces;
  if (!maps_given)
    return r.Fail(path, "give the job's \"maps\" too: one weight per task, its maps first");
  if (!v.is_array() || v.size() != tasks)
    return r.Fail(path, "must be a list of " + std::to_string(tasks) +
                            " positive numbers, one per "
                            "task (" +
                            std::to_string(job->maps) + " maps, then " +
                            std::to_string(job->reduces) + " reduces) " + Got(v));
  for (size_t i = 0; i < v.size(); ++i) {
    double w;
    MRLOCAL_READ_INTO(w, r.Number(v[i], path + "[" + std::to_string(i) + "]", false));
    job->task_weights.push_back(w);
  }
  return Status::OK();
}

// A time relative to the job's arrival (the deadline, the goal), > 0: as `key`_s in
// seconds or as `key`, a duration.
Status ParseRelativeTime(const Reader& r, const json& v, const std::string& path,
                         const std::string& key, std::optional<double>* seconds) {
  const std::string key_s = key + "_s";
  const json* in_seconds = Find(v, key_s);
  const json* duration = Find(v, key);
  if (in_seconds && duration)
    return r.Fail(Join(path, key), "give " + key_s + " or " + key + ", not both");
  if (in_seconds) MRLOCAL_READ_INTO(*seconds, r.Number(*in_seconds, Join(path, key_s), false));
  if (duration) {
    if (!duration->is_string())
      return r.Fail(Join(path, key), "must be a duration such as \"30s\" " + Got(*duration) +
                                         " (or use " + key_s + " for seconds)");
    Result<Duration> d = ParseDuration(duration->get<std::string>());
    if (!d.ok()) return r.Fail(Join(path, key), d.status().message());
    *seconds = Seconds(*d);
  }
  return Status::OK();
}

Result<WorkloadJob> ParseJob(const Reader& r, const json& v, const std::string& path,
                             const AppSchemas& apps, std::string_view base_dir) {
  MRLOCAL_RETURN_IF_ERROR(r.NeedObject(v, path));
  MRLOCAL_RETURN_IF_ERROR(r.CheckKeys(v, path, JobKeys(apps)));
  WorkloadJob job;
  auto at = [&](std::string_view key) { return Join(path, key); };
  const json* app_name = Find(v, "app");
  if (!app_name) return r.Fail(at("app"), "missing (one of " + AppNames(apps) + ")");
  MRLOCAL_READ_INTO(job.app, r.String(*app_name, at("app")));
  const AppSchema* app = FindApp(apps, job.app);
  if (!app)
    return r.Fail(at("app"), "unknown app '" + job.app + "' (known: " + AppNames(apps) + ")");
  const bool no_input = app->input == AppSchema::Input::kNone;

  if (const json* n = Find(v, "name")) MRLOCAL_READ_INTO(job.name, r.String(*n, at("name")));
  const json* arrival = Find(v, "arrival_s");
  if (!arrival) return r.Fail(at("arrival_s"), "missing: seconds since the workload's start");
  MRLOCAL_READ_INTO(job.arrival_s, r.Number(*arrival, at("arrival_s"), true));
  MRLOCAL_RETURN_IF_ERROR(ParseRelativeTime(r, v, path, "deadline", &job.deadline_s));
  MRLOCAL_RETURN_IF_ERROR(ParseRelativeTime(r, v, path, "goal", &job.goal_s));
  if (const json* w = Find(v, "weight"))
    MRLOCAL_READ_INTO(job.weight, r.Number(*w, at("weight"), false));
  if (const json* q = Find(v, "queue")) MRLOCAL_READ_INTO(job.queue, r.String(*q, at("queue")));
  if (const json* b = Find(v, "bid")) MRLOCAL_READ_INTO(job.bid, Credits(r, *b, at("bid")));
  if (const json* a = Find(v, "after")) MRLOCAL_READ_INTO(job.after, r.String(*a, at("after")));
  if (const json* s = Find(v, "shuffle_bytes"))
    MRLOCAL_READ_INTO(job.shuffle_bytes, r.Size(*s, at("shuffle_bytes"), true));
  if (const json* s = Find(v, "output_bytes"))
    MRLOCAL_READ_INTO(job.output_bytes, r.Size(*s, at("output_bytes"), true));
  if (const json* s = Find(v, "shuffle_delay_s"))
    MRLOCAL_READ_INTO(job.shuffle_delay_s, r.Number(*s, at("shuffle_delay_s"), true));

  if (const json* maps = Find(v, "maps"))
    MRLOCAL_READ_INTO(job.maps, r.Integer(*maps, at("maps"), no_input ? 1 : 0, kMaxJobTasks));
  else if (no_input)
    return r.Fail(at("maps"), "missing: " + job.app + " jobs need maps >= 1");
  if (const json* red = Find(v, "reduces"))
    MRLOCAL_READ_INTO(job.reduces, r.Integer(*red, at("reduces"), 0, kMaxJobTasks));
  if (const json* w = Find(v, "task_weights"))
    MRLOCAL_RETURN_IF_ERROR(
        ParseTaskWeights(r, *w, at("task_weights"), Find(v, "maps") != nullptr, &job));

  // What the app takes, and what it must not.
  MRLOCAL_RETURN_IF_ERROR(RefuseOtherAppsFields(r, v, path, *app, apps));
  const json* input = Find(v, "input");
  if (no_input) {
    if (input) return r.Fail(at("input"), job.app + " jobs take no input");
  } else {
    if (!input)
      return r.Fail(at("input"), "missing: " + job.app + " needs \"files\" or \"generate\"");
    MRLOCAL_READ_INTO(job.input, ParseInput(r, *input, at("input"), *app, base_dir));
  }
  MRLOCAL_RETURN_IF_ERROR(ParseAppFields(r, v, path, *app, &job));
  return job;
}

std::string NodeOutsideCluster(uint64_t node, const std::optional<ClusterSpec>& cluster) {
  return "node " + std::to_string(node) + " is not in the cluster" +
         (cluster ? " (" + std::to_string(cluster->nodes()) + " nodes: " + cluster->ToString() + ")"
                  : "");
}

using Steps = std::vector<ProfileStep>;

// A generator's error ("min: must be ...") under the generator's path.
Status FailIn(const Reader& r, const std::string& path, const Status& st) {
  return Status::InvalidArgument(r.source() + ": " + path + "." + st.message());
}

Result<Steps> ParseStepList(const Reader& r, const json& v, const std::string& path) {
  if (v.empty())
    return r.Fail(path, "must be a non-empty list of [time_s, factor] steps " + Got(v));
  if (v.size() > kMaxProfileSteps)
    return r.Fail(path, "over " + std::to_string(kMaxProfileSteps) + " steps");
  Steps steps;
  for (size_t i = 0; i < v.size(); ++i) {
    const std::string spath = path + "[" + std::to_string(i) + "]";
    const json& step = v[i];
    if (!step.is_array() || step.size() != 2)
      return r.Fail(spath, "must be a [time_s, factor] pair " + Got(step));
    ProfileStep s;
    MRLOCAL_READ_INTO(s.at_s, r.Number(step[0], spath + "[0]", true));
    MRLOCAL_READ_INTO(s.factor, r.Number(step[1], spath + "[1]", false));
    if (s.factor > 1) return r.Fail(spath + "[1]", "factor must be in (0, 1] " + Got(step[1]));
    if (!steps.empty() && s.at_s <= steps.back().at_s)
      return r.Fail(spath + "[0]", "times must be strictly increasing " + Got(step[0]));
    steps.push_back(s);
  }
  return steps;
}

// Reads the number at `key` of `v` into *out, when it is there; `need`: it must be.
Status ReadSeconds(const Reader& r, const json& v, const std::string& path, std::string_view key,
                   bool zero_ok, bool need, double* out) {
  const json* x = Find(v, key);
  if (!x) return need ? r.Fail(Join(path, key), "missing") : Status::OK();
  MRLOCAL_READ_INTO(*out, r.Number(*x, Join(path, key), zero_ok));
  return Status::OK();
}

Result<Steps> ParseSinusoid(const Reader& r, const json& v, const std::string& path) {
  MRLOCAL_RETURN_IF_ERROR(r.NeedObject(v, path));
  MRLOCAL_RETURN_IF_ERROR(
      r.CheckKeys(v, path, {"period_s", "min", "max", "phase_s", "step_s", "until_s"}));
  SinusoidProfile p;
  MRLOCAL_RETURN_IF_ERROR(ReadSeconds(r, v, path, "period_s", false, false, &p.period_s));
  MRLOCAL_RETURN_IF_ERROR(ReadSeconds(r, v, path, "min", false, true, &p.min));
  MRLOCAL_RETURN_IF_ERROR(ReadSeconds(r, v, path, "max", false, false, &p.max));
  MRLOCAL_RETURN_IF_ERROR(ReadSeconds(r, v, path, "phase_s", true, false, &p.phase_s));
  MRLOCAL_RETURN_IF_ERROR(ReadSeconds(r, v, path, "step_s", false, false, &p.step_s));
  MRLOCAL_RETURN_IF_ERROR(ReadSeconds(r, v, path, "until_s", false, true, &p.until_s));
  Result<Steps> steps = ExpandSinusoid(p);
  if (!steps.ok()) return FailIn(r, path, steps.status());
  return steps;
}

Result<Steps> ParseBursts(const Reader& r, const json& v, const std::string& path) {
  MRLOCAL_RETURN_IF_ERROR(r.NeedObject(v, path));
  MRLOCAL_RETURN_IF_ERROR(
      r.CheckKeys(v, path, {"every_s", "length_s", "factor", "gaps", "seed", "until_s"}));
  BurstProfile p;
  MRLOCAL_RETURN_IF_ERROR(ReadSeconds(r, v, path, "every_s", false, true, &p.every_s));
  MRLOCAL_RETURN_IF_ERROR(ReadSeconds(r, v, path, "length_s", false, true, &p.length_s));
  MRLOCAL_RETURN_IF_ERROR(ReadSeconds(r, v, path, "factor", false, true, &p.factor));
  MRLOCAL_RETURN_IF_ERROR(ReadSeconds(r, v, path, "until_s", false, true, &p.until_s));
  if (const json* seed = Find(v, "seed"))
    MRLOCAL_READ_INTO(p.seed, r.Integer(*seed, Join(path, "seed"), 0));
  if (const json* gaps = Find(v, "gaps")) {
    std::string name;
    MRLOCAL_READ_INTO(name, r.String(*gaps, Join(path, "gaps")));
    if (name != "exponential" && name != "fixed")
      return r.Fail(Join(path, "gaps"), "must be \"exponential\" or \"fixed\" " + Got(*gaps));
    p.gaps = name == "fixed" ? BurstProfile::Gaps::kFixed : BurstProfile::Gaps::kExponential;
  }
  Result<Steps> steps = ExpandBursts(p);
  if (!steps.ok()) return FailIn(r, path, steps.status());
  return steps;
}

Result<Steps> ParseCsvProfile(const Reader& r, const json& v, const std::string& path,
                              std::string_view base_dir) {
  std::string name;
  MRLOCAL_READ_INTO(name, r.String(v, path));
  const SpecFile file = ResolveFile(base_dir, name);
  if (Status st = CheckReadableFile(file.path, file.shown); !st.ok())
    return r.Fail(path, st.message());
  Result<std::string> text = ReadWorkloadFile(file.path);
  if (!text.ok()) return r.Fail(path, text.status().message());
  Result<Steps> steps = ParseAvailabilityCsv(*text);
  if (!steps.ok()) return r.Fail(path, file.shown + ": " + steps.status().message());
  return steps;
}

// A profile as steps, or generated: {"sinusoid": {...}}, {"bursts": {...}}, {"csv": file}.
Result<Steps> ParseProfile(const Reader& r, const json& v, const std::string& path,
                           std::string_view base_dir) {
  const std::string want =
      "must be a list of [time_s, factor] steps, or one of {\"sinusoid\": {...}}, "
      "{\"bursts\": {...}}, {\"csv\": \"file.csv\"} ";
  if (v.is_array()) return ParseStepList(r, v, path);
  if (!v.is_object() || v.size() != 1) return r.Fail(path, want + Got(v));
  MRLOCAL_RETURN_IF_ERROR(r.CheckKeys(v, path, {"sinusoid", "bursts", "csv"}));
  // The key by value: items() is a temporary whose proxy must not outlive this line.
  const auto first = v.begin();
  const std::string kind = first.key();
  const json& body = first.value();
  const std::string kpath = Join(path, kind);
  if (kind == "sinusoid") return ParseSinusoid(r, body, kpath);
  if (kind == "bursts") return ParseBursts(r, body, kpath);
  return ParseCsvProfile(r, body, kpath, base_dir);
}

Result<AvailabilityProfile> ParseAvailability(const Reader& r, const json& v,
                                              const std::string& path,
                                              const std::optional<ClusterSpec>& cluster,
                                              std::string_view base_dir) {
  MRLOCAL_RETURN_IF_ERROR(r.NeedObject(v, path));
  MRLOCAL_RETURN_IF_ERROR(r.CheckKeys(v, path, {"nodes", "profile", "forecast"}));
  AvailabilityProfile a;
  const json* nodes = Find(v, "nodes");
  const json* profile = Find(v, "profile");
  if (!nodes) return r.Fail(Join(path, "nodes"), "missing: the node ids the profile applies to");
  if (!profile)
    return r.Fail(Join(path, "profile"), "missing: [[time_s, factor], ...] or a generator");
  const std::string npath = Join(path, "nodes");
  if (!nodes->is_array() || nodes->empty())
    return r.Fail(npath, "must be a non-empty list of node ids " + Got(*nodes));
  const uint64_t max_node =
      cluster ? static_cast<uint64_t>(cluster->nodes() - 1) : ClusterSpec::kMaxNodes - 1;
  for (size_t i = 0; i < nodes->size(); ++i) {
    const std::string ipath = npath + "[" + std::to_string(i) + "]";
    uint64_t id;
    MRLOCAL_READ_INTO(id, r.Integer((*nodes)[i], ipath, 0));
    if (id > max_node) return r.Fail(ipath, NodeOutsideCluster(id, cluster));
    a.nodes.push_back(static_cast<int>(id));
  }
  MRLOCAL_READ_INTO(a.steps, ParseProfile(r, *profile, Join(path, "profile"), base_dir));
  if (const json* f = Find(v, "forecast"))
    MRLOCAL_READ_INTO(a.forecast, ParseProfile(r, *f, Join(path, "forecast"), base_dir));
  return a;
}

// "known", "learned", "constant", or {"learned": {"period_s": P, "window_s": W}}.
Result<ForecastSpec> ParseForecast(const Reader& r, const json& v) {
  const std::string want =
      "must be \"known\", \"learned\", \"constant\" or {\"learned\": {\"period_s\": P, "
      "\"window_s\": W}} ";
  ForecastSpec f;
  if (v.is_string()) {
    std::optional<ForecastKind> kind = ForecastKindNamed(v.get<std::string>());
    if (!kind) return r.Fail("forecast", want + Got(v));
    f.kind = *kind;
    return f;
  }
  if (!v.is_object() || v.size() != 1) return r.Fail("forecast", want + Got(v));
  MRLOCAL_RETURN_IF_ERROR(r.CheckKeys(v, "forecast", {"learned"}));
  const json& learned = v.at("learned");
  MRLOCAL_RETURN_IF_ERROR(r.NeedObject(learned, "forecast.learned"));
  MRLOCAL_RETURN_IF_ERROR(r.CheckKeys(learned, "forecast.learned", {"period_s", "window_s"}));
  f.kind = ForecastKind::kLearned;
  MRLOCAL_RETURN_IF_ERROR(
      ReadSeconds(r, learned, "forecast.learned", "period_s", false, false, &f.period_s));
  MRLOCAL_RETURN_IF_ERROR(
      ReadSeconds(r, learned, "forecast.learned", "window_s", false, false, &f.window_s));
  return f;
}

// Default names, then uniqueness, with the message that says which name was whose.
Status NameJobs(const Reader& r, std::vector<WorkloadJob>* jobs) {
  std::map<std::string, size_t> seen;
  std::vector<bool> given(jobs->size());
  for (size_t i = 0; i < jobs->size(); ++i) {
    WorkloadJob& job = (*jobs)[i];
    given[i] = !job.name.empty();
    if (!given[i]) job.name = "job" + std::to_string(i);
    auto [it, fresh] = seen.emplace(job.name, i);
    if (fresh) continue;
    const std::string here = "jobs[" + std::to_string(i) + "]",
                      there = "jobs[" + std::to_string(it->second) + "]";
    if (!given[i])
      return r.Fail(
          here, "its default name '" + job.name + "' is taken by " + there + "; give it a name");
    if (!given[it->second])
      return r.Fail(here + ".name", "'" + job.name + "' is the default name of " + there);
    return r.Fail(here + ".name", "duplicate name '" + job.name + "' (also " + there + ")");
  }
  return Status::OK();
}

// A queue of "queues" or of an add_queue event: {name, budget?, rate?}.
Result<QueueSpec> ParseQueue(const Reader& r, const json& v, const std::string& path) {
  MRLOCAL_RETURN_IF_ERROR(r.NeedObject(v, path));
  MRLOCAL_RETURN_IF_ERROR(r.CheckKeys(v, path, {"name", "budget", "rate"}));
  QueueSpec q;
  const json* name = Find(v, "name");
  if (!name) return r.Fail(Join(path, "name"), "missing: the queue's name");
  MRLOCAL_READ_INTO(q.name, r.String(*name, Join(path, "name")));
  if (const json* b = Find(v, "budget"))
    MRLOCAL_READ_INTO(q.budget, Credits(r, *b, Join(path, "budget")));
  if (const json* s = Find(v, "rate"))
    MRLOCAL_READ_INTO(q.rate, Credits(r, *s, Join(path, "rate")));
  return q;
}

Result<std::vector<QueueSpec>> ParseQueues(const Reader& r, const json& v,
                                           const std::string& path) {
  if (!v.is_array()) return r.Fail(path, "must be a list of {name, budget, rate} " + Got(v));
  if (v.size() > kMaxQueues)
    return r.Fail(path, "at most " + std::to_string(kMaxQueues) + " queues " + Got(v));
  std::vector<QueueSpec> out;
  std::map<std::string, size_t> seen;
  for (size_t i = 0; i < v.size(); ++i) {
    const std::string at = path + "[" + std::to_string(i) + "]";
    QueueSpec q;
    MRLOCAL_READ_INTO(q, ParseQueue(r, v[i], at));
    if (auto [it, fresh] = seen.emplace(q.name, i); !fresh)
      return r.Fail(at + ".name", "duplicate queue '" + q.name + "' (also " + path + "[" +
                                      std::to_string(it->second) + "])");
    out.push_back(std::move(q));
  }
  return out;
}

// {at_s, queue, rate} | {at_s, queue, add_budget} | {at_s, add_queue: {...}} |
// {at_s, remove_queue: NAME}.
Result<QueueEvent> ParseEvent(const Reader& r, const json& v, const std::string& path) {
  MRLOCAL_RETURN_IF_ERROR(r.NeedObject(v, path));
  MRLOCAL_RETURN_IF_ERROR(
      r.CheckKeys(v, path, {"at_s", "queue", "rate", "add_budget", "add_queue", "remove_queue"}));
  QueueEvent e;
  const json* at = Find(v, "at_s");
  if (!at) return r.Fail(Join(path, "at_s"), "missing: seconds since the workload's start");
  double at_s = 0;
  MRLOCAL_READ_INTO(at_s, r.Number(*at, Join(path, "at_s"), true));
  constexpr double kLatestS = 1e9;  // 31 years: the latest time a run reaches
  if (at_s > kLatestS)
    return r.Fail(Join(path, "at_s"), "must be at most " + FormatNumber(kLatestS) + " " + Got(*at));
  e.at = FromSeconds(at_s);
  const int kinds = (Find(v, "rate") != nullptr) + (Find(v, "add_budget") != nullptr) +
                    (Find(v, "add_queue") != nullptr) + (Find(v, "remove_queue") != nullptr);
  if (kinds != 1)
    return r.Fail(path, "give exactly one of rate, add_budget, add_queue, remove_queue " + Got(v));
  const json* queue = Find(v, "queue");
  if (const json* q = Find(v, "add_queue")) {
    if (queue) return r.Fail(Join(path, "queue"), "add_queue names its queue itself");
    e.kind = QueueEvent::Kind::kAddQueue;
    MRLOCAL_READ_INTO(e.queue, ParseQueue(r, *q, Join(path, "add_queue")));
    return e;
  }
  if (const json* q = Find(v, "remove_queue")) {
    if (queue) return r.Fail(Join(path, "queue"), "remove_queue names its queue itself");
    e.kind = QueueEvent::Kind::kRemoveQueue;
    MRLOCAL_READ_INTO(e.queue.name, r.String(*q, Join(path, "remove_queue")));
    return e;
  }
  if (!queue) return r.Fail(Join(path, "queue"), "missing: the queue it changes");
  MRLOCAL_READ_INTO(e.queue.name, r.String(*queue, Join(path, "queue")));
  const bool rate = Find(v, "rate") != nullptr;
  e.kind = rate ? QueueEvent::Kind::kSetRate : QueueEvent::Kind::kAddBudget;
  const std::string key = rate ? "rate" : "add_budget";
  MRLOCAL_READ_INTO(e.value, Credits(r, *Find(v, key), Join(path, key)));
  return e;
}

Result<std::vector<QueueEvent>> ParseEvents(const Reader& r, const json& v) {
  if (!v.is_array()) return r.Fail("events", "must be a list of timed queue changes " + Got(v));
  if (v.size() > kMaxEvents)
    return r.Fail("events", "at most " + std::to_string(kMaxEvents) + " events " + Got(v));
  std::vector<QueueEvent> out;
  for (size_t i = 0; i < v.size(); ++i) {
    QueueEvent e;
    MRLOCAL_READ_INTO(e, ParseEvent(r, v[i], "events[" + std::to_string(i) + "]"));
    out.push_back(std::move(e));
  }
  return out;
}

// Every queue an event or a job names is open then (events) or declared at all (jobs),
// when the spec declares queues; events in time order, ties in the file's order.
Status CheckQueueNames(const Reader& r, WorkloadSpec& spec) {
  std::vector<QueueEvent>& events = spec.queues.events;
  std::vector<size_t> order(events.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return events[a].at < events[b].at; });
  std::set<std::string> open, declared;
  for (const QueueSpec& q : spec.queues.queues) open.insert(q.name), declared.insert(q.name);
  auto list = [](const std::set<std::string>& names) {
    std::string s;
    for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
    return s.empty() ? std::string("none") : s;
  };
  for (size_t i : order) {
    const QueueEvent& e = events[i];
    const std::string at = "events[" + std::to_string(i) + "]";
    const bool is_open = open.count(e.queue.name) > 0;
    if (e.kind == QueueEvent::Kind::kAddQueue) {
      if (is_open)
        return r.Fail(at + ".add_queue.name", "queue '" + e.queue.name + "' is open already");
      open.insert(e.queue.name);
      declared.insert(e.queue.name);
      continue;
    }
    if (!is_open)
      return r.Fail(at, "no open queue '" + e.queue.name + "' at " + FormatNumber(Seconds(e.at)) +
                            " s (open then: " + list(open) + ")");
    if (e.kind == QueueEvent::Kind::kRemoveQueue) open.erase(e.queue.name);
  }
  std::vector<QueueEvent> sorted;
  for (size_t i : order) sorted.push_back(std::move(events[i]));
  events = std::move(sorted);
  if (declared.empty()) return Status::OK();
  for (size_t i = 0; i < spec.jobs.size(); ++i)
    if (!declared.count(spec.jobs[i].queue))
      return r.Fail(
          "jobs[" + std::to_string(i) + "].queue",
          "unknown queue '" + spec.jobs[i].queue + "' (declared: " + list(declared) + ")");
  return Status::OK();
}

// "after" names another job, and following the names never comes back to a job.
Status CheckChains(const Reader& r, const std::vector<WorkloadJob>& jobs) {
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < jobs.size(); ++i) index[jobs[i].name] = i;
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (jobs[i].after.empty()) continue;
    const std::string at = "jobs[" + std::to_string(i) + "].after";
    size_t j = i;
    for (size_t steps = 0; !jobs[j].after.empty(); ++steps) {
      auto it = index.find(jobs[j].after);
      if (it == index.end()) return r.Fail(at, "no job named '" + jobs[j].after + "'");
      j = it->second;
      if (j == i || steps > jobs.size())
        return r.Fail(at, "'" + jobs[i].name + "' would wait for itself (a cycle of after)");
    }
  }
  return Status::OK();
}

// "availability": a list of profiles, no node in two of them.
Result<std::vector<AvailabilityProfile>> ParseAvailabilities(
    const Reader& r, const json& av, const std::optional<ClusterSpec>& cluster,
    std::string_view base_dir) {
  if (!av.is_array())
    return r.Fail("availability", "must be a list of {nodes, profile} " + Got(av));
  std::vector<AvailabilityProfile> out;
  std::map<int, size_t> owner;  // node -> the profile that has it
  for (size_t i = 0; i < av.size(); ++i) {
    const std::string path = "availability[" + std::to_string(i) + "]";
    AvailabilityProfile a;
    MRLOCAL_READ_INTO(a, ParseAvailability(r, av[i], path, cluster, base_dir));
    for (size_t k = 0; k < a.nodes.size(); ++k) {
      auto [it, fresh] = owner.emplace(a.nodes[k], i);
      if (!fresh)
        return r.Fail(path + ".nodes[" + std::to_string(k) + "]",
                      "node " + std::to_string(a.nodes[k]) +
                          " already has a profile (availability[" + std::to_string(it->second) +
                          "])");
    }
    out.push_back(std::move(a));
  }
  return out;
}

// A generated input without "maps" has one map per block: as bounded as "maps" is.
Status CheckBlockMaps(const Reader& r, const WorkloadJob& job, const std::string& path,
                      uint64_t block_size) {
  if (job.input.kind != InputSpec::Kind::kGenerated || job.maps > 0) return Status::OK();
  const uint64_t bytes = job.input.bytes;
  const uint64_t maps = bytes / block_size + (bytes % block_size != 0 ? 1 : 0);
  if (maps <= kMaxJobTasks) return Status::OK();
  return r.Fail(path, FormatBytes(bytes) + " in blocks of " + FormatBytes(block_size) + " is " +
                          std::to_string(maps) + " maps, over the " + std::to_string(kMaxJobTasks) +
                          " a job may have (give \"maps\" or a larger \"block_size\")");
}

// "jobs": a non-empty list, each named (given or by default) and each "after" a job of it.
Result<std::vector<WorkloadJob>> ParseJobs(const Reader& r, const json& jobs,
                                           const AppSchemas& apps, std::string_view base_dir,
                                           uint64_t block_size) {
  if (!jobs.is_array() || jobs.empty())
    return r.Fail("jobs", "must be a non-empty list of jobs " + Got(jobs));
  std::vector<WorkloadJob> out;
  out.reserve(jobs.size());
  for (size_t i = 0; i < jobs.size(); ++i) {
    WorkloadJob job;
    const std::string path = "jobs[" + std::to_string(i) + "]";
    MRLOCAL_READ_INTO(job, ParseJob(r, jobs[i], path, apps, base_dir));
    MRLOCAL_RETURN_IF_ERROR(CheckBlockMaps(r, job, Join(path, "input"), block_size));
    out.push_back(std::move(job));
  }
  MRLOCAL_RETURN_IF_ERROR(NameJobs(r, &out));
  MRLOCAL_RETURN_IF_ERROR(CheckChains(r, out));
  return out;
}

// "faults": a list of fault strings, each as --inject takes it.
Result<std::vector<Fault>> ParseFaultList(const Reader& r, const json& v) {
  if (!v.is_array()) return r.Fail("faults", "must be a list of fault strings " + Got(v));
  std::vector<Fault> out;
  for (size_t i = 0; i < v.size(); ++i) {
    const std::string path = "faults[" + std::to_string(i) + "]";
    std::string text;
    MRLOCAL_READ_INTO(text, r.String(v[i], path));
    Result<Fault> f = ParseFault(text);
    if (!f.ok()) return r.Fail(path, f.status().message());
    out.push_back(std::move(f).value());
  }
  return out;
}

Result<WorkloadSpec> ParseTop(const Reader& r, const json& root, const AppSchemas& apps,
                              std::string_view base_dir) {
  if (!root.is_object()) return r.Fail("", "the top level must be a JSON object " + Got(root));
  MRLOCAL_RETURN_IF_ERROR(
      r.CheckKeys(root, "",
                  {"name", "description", "cluster", "block_size", "model", "reduce_slowstart",
                   "availability", "forecast", "queues", "events", "faults", "jobs"}));
  WorkloadSpec spec;
  spec.source = r.source();
  spec.name = std::filesystem::path(r.source()).stem().string();
  if (spec.name.empty()) spec.name = "workload";
  if (const json* n = Find(root, "name")) MRLOCAL_READ_INTO(spec.name, r.String(*n, "name"));
  if (const json* d = Find(root, "description")) {
    if (!d->is_string()) return r.Fail("description", "must be a string " + Got(*d));
    spec.description = d->get<std::string>();
  }
  if (const json* c = Find(root, "cluster")) {
    std::string text;
    MRLOCAL_READ_INTO(text, r.String(*c, "cluster"));
    Result<ClusterSpec> cluster = ClusterSpec::Parse(text);
    if (!cluster.ok()) {
      std::string msg = cluster.status().message();
      if (msg.rfind("--cluster ", 0) == 0) msg.erase(0, 10);  // the parser speaks to the CLI
      return r.Fail("cluster", msg);
    }
    spec.cluster = std::move(*cluster);
  }
  if (const json* b = Find(root, "block_size"))
    MRLOCAL_READ_INTO(spec.block_size, r.Size(*b, "block_size", false));
  if (const json* f = Find(root, "reduce_slowstart")) {
    double x = 0;
    MRLOCAL_READ_INTO(x, r.Number(*f, "reduce_slowstart", false));
    if (x > 1) return r.Fail("reduce_slowstart", "must be a fraction in (0, 1] " + Got(*f));
    spec.reduce_slowstart = x;
  }
  if (const json* m = Find(root, "model")) {
    MRLOCAL_RETURN_IF_ERROR(r.NeedObject(*m, "model"));
    MRLOCAL_RETURN_IF_ERROR(r.CheckKeys(*m, "model", {"noise", "shuffle_delay_s"}));
    if (const json* n = Find(*m, "noise"))
      MRLOCAL_READ_INTO(spec.model.noise, r.Number(*n, "model.noise", true));
    if (const json* s = Find(*m, "shuffle_delay_s"))
      MRLOCAL_READ_INTO(spec.model.shuffle_delay_s, r.Number(*s, "model.shuffle_delay_s", true));
  }
  if (const json* av = Find(root, "availability"))
    MRLOCAL_READ_INTO(spec.availability, ParseAvailabilities(r, *av, spec.cluster, base_dir));
  if (const json* f = Find(root, "forecast"))
    MRLOCAL_READ_INTO(spec.forecast, ParseForecast(r, *f));
  if (const json* f = Find(root, "faults")) MRLOCAL_READ_INTO(spec.faults, ParseFaultList(r, *f));
  const json* jobs = Find(root, "jobs");
  if (!jobs) return r.Fail("jobs", "missing: the list of jobs");
  MRLOCAL_READ_INTO(spec.jobs, ParseJobs(r, *jobs, apps, base_dir, spec.block_size));
  if (const json* q = Find(root, "queues"))
    MRLOCAL_READ_INTO(spec.queues.queues, ParseQueues(r, *q, "queues"));
  if (const json* e = Find(root, "events"))
    MRLOCAL_READ_INTO(spec.queues.events, ParseEvents(r, *e));
  MRLOCAL_RETURN_IF_ERROR(CheckQueueNames(r, spec));
  std::stable_sort(
      spec.jobs.begin(), spec.jobs.end(),
      [](const WorkloadJob& a, const WorkloadJob& b) { return a.arrival_s < b.arrival_s; });
  return spec;
}

// Parses `text` as JSON into `root`: a syntax error with its line and column, a repeated
// key by its path.
Status ParseJsonText(const Reader& r, std::string_view text, json* root) {
  DuplicateKeyFinder dups;
  try {
    *root = json::parse(text.begin(), text.end(), std::ref(dups));
  } catch (const json::parse_error& e) {
    // e.byte is the 1-based offset of the last byte read; the message repeats the place.
    std::string what = e.what();
    const size_t colon = what.find(": ", what.find("parse error"));
    if (colon != std::string::npos) what.erase(0, colon + 2);
    if (what.rfind("syntax error ", 0) == 0) what.erase(0, 13);
    return Status::InvalidArgument(r.source() + ":" + LineCol(text, e.byte ? e.byte - 1 : 0) +
                                   ": JSON syntax error: " + what);
  } catch (const json::out_of_range& e) {
    // "number overflow parsing '1e999'" has no offset: place the number's first occurrence.
    const std::string what = e.what();
    const size_t q = what.find('\''), q2 = what.rfind('\'');
    if (q == std::string::npos || q2 <= q) return r.Fail("", "JSON number out of range");
    const std::string number = what.substr(q + 1, q2 - q - 1);
    const size_t at = text.find(number);
    return Status::InvalidArgument(r.source() + ":" + LineCol(text, at == text.npos ? 0 : at) +
                                   ": JSON number out of range: " + number);
  } catch (const json::exception& e) {
    return r.Fail("", std::string("cannot read JSON: ") + e.what());
  }
  if (!dups.duplicate().empty())
    return r.Fail(dups.duplicate(), "repeated key (JSON keeps only the last)");
  return Status::OK();
}

Result<WorkloadSpec> ParseSpec(std::string_view text, std::string_view source,
                               const AppSchemas& apps, std::string_view base_dir,
                               bool check_files) {
  const Reader r(source.empty() ? std::string("spec") : std::string(source), check_files);
  json root;
  MRLOCAL_RETURN_IF_ERROR(OnOneLine(ParseJsonText(r, text, &root)));
  try {
    Result<WorkloadSpec> spec = ParseTop(r, root, apps, base_dir);
    if (!spec.ok()) return OnOneLine(spec.status());  // keys and names may hold line breaks
    return spec;
  } catch (const json::exception& e) {  // a check above that missed a type: still one line
    return OnOneLine(r.Fail("", e.what()));
  }
}

}  // namespace

Result<WorkloadSpec> ParseWorkloadJson(std::string_view text, std::string_view source,
                                       const AppSchemas& apps, std::string_view base_dir) {
  return ParseSpec(text, source, apps, base_dir, /*check_files=*/false);
}

Result<std::vector<QueueSpec>> ParseQueueListJson(std::string_view text, std::string_view source) {
  const Reader r(source.empty() ? std::string("queues") : std::string(source), false);
  json root;
  MRLOCAL_RETURN_IF_ERROR(OnOneLine(ParseJsonText(r, text, &root)));
  try {
    Result<std::vector<QueueSpec>> queues = ParseQueues(r, root, "");
    if (!queues.ok()) return OnOneLine(queues.status());  // names may hold line breaks
    return queues;
  } catch (const json::exception& e) {
    return OnOneLine(r.Fail("", e.what()));
  }
}

std::string_view ToString(ForecastKind kind) {
  switch (kind) {
    case ForecastKind::kKnown:
      return "known";
    case ForecastKind::kLearned:
      return "learned";
    case ForecastKind::kConstant:
      return "constant";
  }
  return "?";
}

std::optional<ForecastKind> ForecastKindNamed(std::string_view name) {
  for (ForecastKind k : {ForecastKind::kKnown, ForecastKind::kLearned, ForecastKind::kConstant})
    if (ToString(k) == name) return k;
  return std::nullopt;
}

Status CheckAvailability(const WorkloadSpec& spec, const ClusterSpec& cluster) {
  for (size_t i = 0; i < spec.availability.size(); ++i) {
    const std::vector<int>& nodes = spec.availability[i].nodes;
    for (size_t k = 0; k < nodes.size(); ++k) {
      if (nodes[k] < cluster.nodes()) continue;
      return Status::InvalidArgument(spec.source + ": availability[" + std::to_string(i) +
                                     "].nodes[" + std::to_string(k) +
                                     "]: " + NodeOutsideCluster(nodes[k], cluster));
    }
  }
  return Status::OK();
}

Status CheckWorkloadTasks(const WorkloadSpec& spec) {
  uint64_t tasks = 0;
  for (const WorkloadJob& j : spec.jobs) {
    uint64_t maps = j.maps;
    if (maps == 0 && j.input.kind == InputSpec::Kind::kGenerated)
      maps = j.input.bytes / spec.block_size + (j.input.bytes % spec.block_size != 0);
    tasks += maps + j.reduces;
  }
  if (tasks <= kMaxWorkloadTasks) return Status::OK();
  return Status::InvalidArgument(
      "the workload's " + std::to_string(spec.jobs.size()) + " jobs declare " +
      std::to_string(tasks) + " tasks, over the " + std::to_string(kMaxWorkloadTasks) +
      " a workload may have (each simulated task holds memory while its job runs)");
}

Status CheckTaskWeightCount(const WorkloadJob& job, size_t maps, size_t reduces) {
  if (job.task_weights.empty() || job.task_weights.size() == maps + reduces) return Status::OK();
  return Status::InvalidArgument(
      "job '" + job.name + "': task_weights gives " + std::to_string(job.task_weights.size()) +
      " weights for its " + std::to_string(maps) + " maps and " + std::to_string(reduces) +
      " reduces (an input of several files splits per file: give a weight per split)");
}

Result<WorkloadSpec> LoadWorkloadJson(const std::string& path, const AppSchemas& apps) {
  Result<std::string> text = ReadWorkloadFile(path);
  if (!text.ok()) return text.status();
  return ParseSpec(*text, path, apps, std::filesystem::path(path).parent_path().string(),
                   /*check_files=*/true);
}

}  // namespace mrlocal
