// mrlocal history show|reset [APP] [--history FILE]
// What the deadline policies know of each app (tools/runtime/history_file.h): `show`
// prints each app's fitted worst case per phase and what it is fitted to, and how many
// tasks the kNN estimator has observed; `reset` forgets one app (both), or removes the
// whole file, but only a file that reads as mrlocal's history.
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <set>
#include <system_error>

#include "sched/estimate/job_history.h"
#include "tools/cli/commands.h"
#include "tools/cli/option_checks.h"
#include "tools/runtime/exit_codes.h"
#include "tools/runtime/history_file.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;

// "fitted to 4 tasks of 24 to 4404412 units (the worst 1 left out as an outlier)", or
// what a model without observations is.
std::string Fitted(const std::vector<AffinePoint>& points, const char* what) {
  if (points.empty()) return "no observations: kept as given until the next job";
  double lo = points.front().units, hi = lo;
  for (const AffinePoint& p : points) {
    lo = std::min(lo, p.units);
    hi = std::max(hi, p.units);
  }
  char line[160];
  std::snprintf(line, sizeof line, "fitted to %zu %s%s of %.15g to %.15g units", points.size(),
                what, points.size() == 1 ? "" : "s", lo, hi);
  std::string s = line;
  if (const size_t out = OutliersAllowed(points.size()); out > 0)
    s += " (the worst " + std::to_string(out) +
         (out == 1 ? " left out as an outlier)" : " left out as outliers)");
  return s;
}

// "  knn      120 maps, 40 reduces observed (at most 256 of each kept)".
void PrintKnn(std::ostream& out, const KnnAppObservations* o) {
  const size_t maps = o ? o->maps.size() : 0, reduces = o ? o->reduces.size() : 0;
  out << "  knn      " << maps << (maps == 1 ? " map, " : " maps, ") << reduces
      << (reduces == 1 ? " reduce" : " reduces") << " observed (at most " << kMaxKnnObservations
      << " of each kept)\n";
}

void PrintApp(std::ostream& out, const std::string& app, const AppEstimate& e) {
  const AppModel& m = e.model;
  const AppObservations& o = e.observations;
  char line[320];
  std::snprintf(line, sizeof line, "%s: %llu job%s (%s)\n", app.c_str(),
                static_cast<unsigned long long>(e.jobs), e.jobs == 1 ? "" : "s", e.source.c_str());
  out << line;
  std::snprintf(line, sizeof line, "  map      %.4g s + %.4g s/unit, %s\n", m.map_fixed_s,
                m.map_s_per_unit, Fitted(o.maps, "task").c_str());
  out << line;
  std::snprintf(line, sizeof line, "  reduce   %.4g s + %.4g s/unit, %s\n", m.reduce_fixed_s,
                m.reduce_s_per_unit, Fitted(o.reduces, "task").c_str());
  out << line;
  std::snprintf(line, sizeof line,
                "  shuffle  %.4g units + %.4g units/unit, largest reduce %.4g x the mean, %s\n",
                m.shuffle_fixed_units, m.alpha, m.reduce_skew, Fitted(o.shuffles, "job").c_str());
  out << line;
}

class HistoryCommand final : public Command {
 public:
  explicit HistoryCommand(CLI::App& root) {
    app = root.add_subcommand("history",
                              "Show or reset the task-time history the deadline policies "
                              "estimate from");
    app->add_option("--history", file_,
                    "History file (default: " + DefaultHistoryPath().string() + ")")
        ->check(NotEmpty());  // given but empty is an error, not the default file
    app->require_subcommand(1);
    show_ = app->add_subcommand("show", "Each app's fitted worst case and what it rests on");
    show_->add_option("APP", app_name_, "Only this app")->check(NotEmpty());
    reset_ = app->add_subcommand(
        "reset", "Forget APP's history, or remove the whole file (only one mrlocal wrote)");
    reset_->add_option("APP", app_name_, "Only this app")->check(NotEmpty());
    // `--history FILE` may also follow the action.
    for (CLI::App* sub : {show_, reset_}) sub->fallthrough();
  }

  int Run() override {
    const fs::path path = file_.empty() ? DefaultHistoryPath() : fs::path(file_);
    int version = 0;
    Result<HistoryContents> loaded = LoadHistoryFile(path, &version);
    if (!loaded.ok() && loaded.status().code() == Status::Code::kNotFound) {
      if (show_->parsed() && !app_name_.empty()) return ReportError(NoApp(path, {}));
      std::cout << "no history file at " << path.string() << ": nothing to "
                << (show_->parsed() ? "show" : "reset") << "\n";
      return kExitOk;
    }
    if (!loaded.ok())
      return ReportError(reset_->parsed() &&
                                 loaded.status().code() == Status::Code::kInvalidArgument
                             ? Status::InvalidArgument(loaded.status().message() +
                                                       "; not removed: it may not be mrlocal's")
                             : loaded.status());
    return show_->parsed() ? Show(path, version, *loaded) : Reset(path, *loaded);
  }

 private:
  Status NoApp(const fs::path& path, const HistoryContents& h) const {
    std::string names;
    for (auto& name : AppNames(h)) names += (names.empty() ? "" : ", ") + name;
    return Status::InvalidArgument("no history for app '" + app_name_ + "' in " + path.string() +
                                   " (apps: " + (names.empty() ? "none" : names) + ")");
  }

  // The apps with history or kNN observations, in order.
  static std::set<std::string> AppNames(const HistoryContents& h) {
    std::set<std::string> names;
    for (auto& [name, e] : h.history.apps()) names.insert(name);
    for (auto& [name, o] : h.knn) names.insert(name);
    return names;
  }

  int Show(const fs::path& path, int version, const HistoryContents& h) const {
    const std::set<std::string> names = AppNames(h);
    if (!app_name_.empty() && !names.count(app_name_)) return ReportError(NoApp(path, h));
    std::cout << "history file " << path.string() << " (version " << version << ")\n";
    if (names.empty()) std::cout << "no apps\n";
    for (const std::string& name : names) {
      if (!app_name_.empty() && name != app_name_) continue;
      if (const AppEstimate* e = h.history.Find(name))
        PrintApp(std::cout, name, *e);
      else
        std::cout << name << ": no jobs recorded\n";
      auto knn = h.knn.find(name);
      PrintKnn(std::cout, knn == h.knn.end() ? nullptr : &knn->second);
    }
    return kExitOk;
  }

  int Reset(const fs::path& path, HistoryContents& h) const {
    if (app_name_.empty()) {
      std::error_code ec;
      fs::remove(path, ec);
      if (ec)
        return ReportError(
            Status::IoError("cannot remove history file '" + path.string() + "': " + ec.message()));
      std::cout << "removed history file " << path.string() << "\n";
      return kExitOk;
    }
    const AppEstimate* e = h.history.Find(app_name_);
    if (!e && !h.knn.count(app_name_)) {
      std::cout << "no history for " << app_name_ << " in " << path.string()
                << ": nothing to reset\n";
      return kExitOk;
    }
    const uint64_t jobs = e ? e->jobs : 0;
    h.history.Erase(app_name_);
    h.knn.erase(app_name_);  // its kNN observations too
    if (Status st = SaveHistoryFile(h, path); !st.ok()) return ReportError(st);
    std::cout << "forgot " << app_name_ << " (" << jobs << " job" << (jobs == 1 ? "" : "s")
              << ") in " << path.string() << "\n";
    return kExitOk;
  }

  std::string file_;
  std::string app_name_;
  CLI::App* show_ = nullptr;
  CLI::App* reset_ = nullptr;
};

}  // namespace

std::unique_ptr<Command> AddHistoryCommand(CLI::App& root) {
  return std::make_unique<HistoryCommand>(root);
}

}  // namespace mrlocal
