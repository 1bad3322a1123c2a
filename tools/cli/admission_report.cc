#include "tools/cli/admission_report.h"

#include <cstdio>

#include "sched/core/units.h"

namespace mrlocal {
namespace {

std::string EstimateSource(const AppEstimate& e, double margin, double confidence) {
  std::string what;
  if (e.source == "history")
    what = "worst-case history estimates from " + std::to_string(e.jobs) +
           (e.jobs == 1 ? " job" : " jobs");
  else if (e.source == "probe")
    what = "worst-case estimates from a first-run probe, widened x2";
  else if (e.source == "knn")
    what = "kNN estimates from the history's task observations";
  else
    what = "worst-case " + e.source + " estimates";
  if (margin != 1.0) {
    char buf[32];
    std::snprintf(buf, sizeof buf, ", x%g margin", margin);
    what += buf;
  }
  if (confidence < 1) {
    // Below kMinSpreadObservations maps seen, the history tells no spread (JobHistory::Spread).
    const bool spread = e.observations.maps.size() >= kMinSpreadObservations || e.map_spread;
    what += "; at confidence " + FormatNumber(confidence) +
            (spread ? ""
                    : ", as the worst case until " + std::to_string(kMinSpreadObservations) +
                          " maps are seen");
  }
  return what;
}

}  // namespace

std::string DeadlineArg(Duration d) {
  const int64_t ns = d.count();
  auto up = [ns](int64_t unit) { return (ns + unit - 1) / unit; };
  constexpr int64_t kMs = 1'000'000, kS = 1000 * kMs, kM = 60 * kS, kH = 60 * kM;
  if (ns < kS) return std::to_string(std::max<int64_t>(1, up(kMs))) + "ms";
  if (ns < 10 * kM) return std::to_string(up(kS)) + "s";
  if (ns < 10 * kH) return std::to_string(up(kM)) + "m";
  return std::to_string(up(kH)) + "h";
}

Duration SuggestedDeadline(Duration min_deadline, Duration setup) {
  return min_deadline + setup + setup / 2 + kSetUpJitter;
}

std::string FormatAdmission(const AdmissionView& v) {
  const JobState& job = *v.job;
  const Admission& a = *v.admission;
  auto count = [](uint32_t n, const char* what) {
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
  };
  std::string line = "mrlocal: " + job.spec.app + " (" + count(job.M(), "map") + ", " +
                     count(job.R(), "reduce") + ") " + (a.guaranteed() ? "admitted" : "rejected") +
                     " by " + v.policy + ": ";
  // What was left of the deadline at submission.
  const Duration left = v.deadline.value_or(Duration::zero()) - v.setup;
  const std::string source =
      v.estimate ? " (" + EstimateSource(*v.estimate, v.estimate_margin, v.confidence) + ")" : "";
  if (a.estimated_finish() && v.deadline) {
    const Duration finish = *a.estimated_finish() - job.arrival;
    line += "estimated finish " + FormatDuration(finish) + " after submission";
    if (a.guaranteed())
      line += ", slack " + FormatDuration(left - finish) + source;
    else
      line += " is past its deadline, " + FormatDuration(left) + " after submission" + source;
  } else {
    line += a.reason;
  }
  line += "\n";
  if (a.best_effort) line.insert(line.size() - 1, "; runs best-effort in spare slots");
  return a.guaranteed() ? line : line + AdmissionHint(v);
}

std::string AdmissionHint(const AdmissionView& v) {
  const Admission::DeadlineEstimate hints =
      v.admission->estimate.value_or(Admission::DeadlineEstimate{});
  std::string fixes;
  if (hints.min_deadline)
    fixes = "--deadline " + DeadlineArg(SuggestedDeadline(*hints.min_deadline, v.setup));
  if (hints.extra_nodes)
    fixes += (fixes.empty() ? "" : " or ") + std::to_string(*hints.extra_nodes) + " more node" +
             (*hints.extra_nodes == 1 ? "" : "s") + " of (1m,1r,1.0)";
  std::string hint = fixes.empty() ? "" : "feasible with " + fixes;
  if (!v.best_effort)
    hint += (hint.empty() ? "" : "; ") +
            std::string("--best-effort runs it anyway, without a guarantee");
  return hint.empty() ? "" : "mrlocal: " + hint + "\n";
}

}  // namespace mrlocal
