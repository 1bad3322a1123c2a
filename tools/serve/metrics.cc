#include "tools/serve/metrics.h"

#include <unistd.h>

#include <cmath>
#include <fstream>
#include <sstream>

namespace mrlocal {
namespace {

// A label value with \, " and newlines escaped, as the format asks.
std::string Label(std::string_view v) {
  std::string out;
  for (char c : v) {
    if (c == '\\' || c == '"') out += '\\';
    out += c == '\n' ? 'n' : c;
  }
  return out;
}

void Head(std::ostringstream& out, const char* name, const char* type, const char* help) {
  out << "# HELP " << name << " " << help << "\n# TYPE " << name << " " << type << "\n";
}

// Resident pages (/proc/self/statm's second field) in bytes; 0 when unreadable.
int64_t ResidentBytes() {
  std::ifstream statm("/proc/self/statm");
  int64_t size = 0, resident = 0;
  if (!(statm >> size >> resident)) return 0;
  return resident * sysconf(_SC_PAGESIZE);
}

}  // namespace

std::string MetricsText(const Service& service) {
  std::ostringstream out;
  Head(out, "mrlocal_jobs", "gauge", "Jobs in the store by phase.");
  const auto counts = service.store().JobCounts();
  for (JobStage p : {JobStage::kQueued, JobStage::kRunning, JobStage::kSucceeded, JobStage::kFailed,
                     JobStage::kCancelled, JobStage::kRejected}) {
    auto it = counts.find(p);
    out << "mrlocal_jobs{phase=\"" << JobStageName(p) << "\"} "
        << (it == counts.end() ? 0 : it->second) << "\n";
  }
  int slots[2] = {0, 0}, busy[2] = {0, 0};
  for (const SlotView& s : service.Slots()) {
    ++slots[s.map ? 0 : 1];
    busy[s.map ? 0 : 1] += s.job > 0;
  }
  Head(out, "mrlocal_slots", "gauge", "Slots by kind.");
  out << "mrlocal_slots{kind=\"map\"} " << slots[0] << "\nmrlocal_slots{kind=\"reduce\"} "
      << slots[1] << "\n";
  Head(out, "mrlocal_slots_busy", "gauge", "Slots running a task, by kind.");
  out << "mrlocal_slots_busy{kind=\"map\"} " << busy[0] << "\nmrlocal_slots_busy{kind=\"reduce\"} "
      << busy[1] << "\n";

  const SchedulerView sched = service.Scheduler();
  Head(out, "mrlocal_decision_latency_seconds", "histogram",
       "How long each slot's scheduling decision (the policy's pick) took.");
  uint64_t cumulative = 0;
  for (size_t i = 0; i + 1 < sched.latency_buckets.size(); ++i) {
    cumulative += sched.latency_buckets[i];
    out << "mrlocal_decision_latency_seconds_bucket{le=\"" << std::ldexp(1.0, int(i)) * 1e-6
        << "\"} " << cumulative << "\n";
  }
  out << "mrlocal_decision_latency_seconds_bucket{le=\"+Inf\"} " << sched.slot_decisions << "\n"
      << "mrlocal_decision_latency_seconds_sum " << sched.latency_sum_s << "\n"
      << "mrlocal_decision_latency_seconds_count " << sched.slot_decisions << "\n";

  Head(out, "mrlocal_scheduler_decisions", "counter",
       "Policy calls (admissions, picks, ticks), as mrlocal workload counts them.");
  out << "mrlocal_scheduler_decisions " << sched.decisions << "\n";
  Head(out, "mrlocal_scheduler_decision_seconds", "gauge",
       "The policy calls' latency percentiles (the Controller's SchedulerStats).");
  out << "mrlocal_scheduler_decision_seconds{quantile=\"0.5\"} " << sched.p50_us * 1e-6 << "\n"
      << "mrlocal_scheduler_decision_seconds{quantile=\"0.99\"} " << sched.p99_us * 1e-6
      << "\n";

  Head(out, "process_resident_memory_bytes", "gauge", "The server's resident memory.");
  out << "process_resident_memory_bytes " << ResidentBytes() << "\n";
  Head(out, "mrlocal_store_memory_bytes", "gauge", "The heap SQLite holds (page cache, statements).");
  out << "mrlocal_store_memory_bytes " << ServiceStore::SqliteMemoryUsed() << "\n";

  const auto queues = service.Queues();
  Head(out, "mrlocal_queue_budget_micro", "gauge", "What is left of each queue's budget.");
  for (const QueueView& q : queues)
    out << "mrlocal_queue_budget_micro{queue=\"" << Label(q.record.name) << "\"} "
        << q.record.budget << "\n";
  Head(out, "mrlocal_queue_rate_micro", "gauge", "Each queue's bid per slot and interval.");
  for (const QueueView& q : queues)
    out << "mrlocal_queue_rate_micro{queue=\"" << Label(q.record.name) << "\"} " << q.record.rate
        << "\n";
  Head(out, "mrlocal_queue_spent_micro_total", "counter", "All each queue was charged.");
  for (const QueueView& q : queues)
    out << "mrlocal_queue_spent_micro_total{queue=\"" << Label(q.record.name) << "\"} "
        << q.record.charged << "\n";
  Head(out, "mrlocal_queue_running_tasks", "gauge", "Tasks of each queue's jobs running.");
  for (const QueueView& q : queues)
    out << "mrlocal_queue_running_tasks{queue=\"" << Label(q.record.name) << "\"} " << q.running
        << "\n";
  Head(out, "mrlocal_queue_share", "gauge", "Each queue's share of the map slots.");
  for (const QueueView& q : queues)
    out << "mrlocal_queue_share{queue=\"" << Label(q.record.name) << "\"} " << q.share_map << "\n";
  return out.str();
}

}  // namespace mrlocal
