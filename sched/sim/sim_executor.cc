#include "sched/sim/sim_executor.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sched/core/splitmix.h"

namespace mrlocal {

SimExecutor::SimExecutor(SimLoop& loop, std::vector<SlotInfo> slots, SimExecutorOptions options)
    : loop_(loop), slots_(std::move(slots)), options_(std::move(options)) {
  running_.resize(slots_.size());
  profile_of_slot_.resize(slots_.size(), nullptr);
  if (options_.faults)
    for (auto& [node, slow] : options_.faults->SlowProfiles()) {
      auto it = options_.availability.find(node);
      slowed_[node] = it == options_.availability.end() ? slow : Product(it->second, slow);
    }
  for (size_t i = 0; i < slots_.size(); ++i) {
    auto slow = slowed_.find(slots_[i].node);
    auto it = options_.availability.find(slots_[i].node);
    if (slow != slowed_.end())
      profile_of_slot_[i] = &slow->second;
    else if (it != options_.availability.end())
      profile_of_slot_[i] = &it->second;
  }
}

void SimExecutor::AddJob(JobId id, SimJob job) {
  JobModel& m = jobs_[id];
  if (options_.network.active()) {
    m.partitions = job.shuffle;
    m.map_host.assign(job.map_work_s.size(), -1);
  }
  m.job = std::move(job);
}

double SimExecutor::MaxNoiseFactor(double sigma) {
  return sigma <= 0 ? 1.0 : std::exp(sigma * kNoiseClipSigmas - sigma * sigma / 2);
}

std::vector<double> SimExecutor::NoiseQuantiles(double sigma, int n) {
  auto cdf = [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); };
  std::vector<double> out;
  for (int i = 1; i <= n; ++i) {
    const double u = double(i) / n;
    double lo = -8, hi = 8;  // the normal's u-quantile by bisection, kept from above
    while (u < 1 && hi - lo > 1e-9) {
      const double mid = (lo + hi) / 2;
      (cdf(mid) < u ? lo : hi) = mid;
    }
    const double z = std::clamp(hi, -kNoiseClipSigmas, kNoiseClipSigmas);
    out.push_back(std::exp(sigma * z - sigma * sigma / 2));
  }
  return out;
}

double SimExecutor::Noise(const TaskLaunch& l) const {
  if (options_.noise <= 0) return 1.0;
  uint64_t h = SplitMix(options_.seed);
  h = SplitMix(h ^ l.task.job);
  h = SplitMix(h ^ (static_cast<uint64_t>(l.task.index) << 1 | (l.task.kind == TaskKind::kReduce)));
  h = SplitMix(h ^ l.attempt);
  // Box-Muller; the factor exp(sigma z - sigma^2/2) has mean 1.
  double z = std::sqrt(-2.0 * std::log(UnitOf(h))) * std::cos(2 * M_PI * UnitOf(SplitMix(h)));
  z = std::clamp(z, -kNoiseClipSigmas, kNoiseClipSigmas);
  return std::exp(options_.noise * z - options_.noise * options_.noise / 2);
}

double SimExecutor::Speed(SlotId slot, Time t) const {
  const SpeedProfile* p = profile_of_slot_[slot];
  return p ? slots_[slot].speed * p->At(t) : slots_[slot].speed;
}

Time SimExecutor::EndOf(SlotId slot, Time from, double work_s) const {
  const SpeedProfile* p = profile_of_slot_[slot];
  const double base = slots_[slot].speed;
  return p ? p->EndOf(from, work_s, base) : from + FromSeconds(work_s / base);
}

void SimExecutor::Launch(const TaskLaunch& l) {
  auto it = jobs_.find(l.task.job);
  if (it == jobs_.end()) throw std::logic_error("SimExecutor: job without a model");
  const JobModel& m = it->second;
  const bool map = l.task.kind == TaskKind::kMap;
  const std::vector<double>& work = map ? m.job.map_work_s : m.job.reduce_work_s;
  if (l.task.index >= work.size()) throw std::logic_error("SimExecutor: task without a model");
  Running& r = running_[l.slot];
  r.token = l.token;
  r.launch = l;
  r.start = loop_.Now();
  r.work_s = work[l.task.index] * Noise(l);
  r.remote_bytes = map || !options_.network.active()
                       ? 0
                       : RemoteBytes(m, l.task.index, options_.network.HostOf(slots_[l.slot].node));
  r.compute_from = r.start + options_.network.TransferTime(r.remote_bytes);
  r.end = EndOf(l.slot, r.compute_from, r.work_s);
  r.fault = Status::OK();
  if (options_.faults) InjectFault(r);
  ++events_;
  const SlotId slot = l.slot;
  const uint64_t token = l.token;
  loop_.At(r.end, [this, slot, token] { Finish(slot, token); });
}

void SimExecutor::InjectFault(Running& r) const {
  const TaskLaunch& l = r.launch;
  const AttemptFault f =
      options_.faults->ForAttempt(l.task, l.attempt, l.slot, slots_[l.slot].node, r.start);
  if (!f.fails()) return;
  Time end = r.end;
  if (f.at_fraction) end = std::min(end, EndOf(l.slot, r.compute_from, r.work_s * *f.at_fraction));
  if (f.at_time) end = std::min(end, std::max(*f.at_time, r.start));
  r.end = end;
  r.fault = f.status();
}

void SimExecutor::Finish(SlotId slot, uint64_t token) {
  Running& r = running_[slot];
  if (r.token != token) return;  // cancelled meanwhile
  r.token = 0;
  ++events_;
  const TaskRef t = r.launch.task;
  SimJob& job = jobs_.at(t.job).job;
  TaskReport report;
  report.task = t;
  report.token = token;
  report.slot = slot;
  report.start = r.start;
  report.end = loop_.Now();
  report.dispatch_latency = r.start - r.launch.ready_since;
  if (!r.fault.ok()) {
    report.status = std::move(r.fault);
    report_(std::move(report));
    return;
  }
  if (t.kind == TaskKind::kMap) {
    JobModel& m = jobs_.at(t.job);
    if (t.index < m.map_host.size())
      m.map_host[t.index] = options_.network.HostOf(slots_[slot].node);
    if (t.index < job.map_input.size()) report.input_bytes = job.map_input[t.index];
    if (t.index < job.map_output.size()) report.output_bytes = job.map_output[t.index];
    if (job.shuffle.width() > 0) {
      // Once per job. A report of its own, so that every other one is known to carry no
      // sketch and costs no more than before.
      TaskReport carrying = std::move(report);
      carrying.sketch = std::exchange(job.shuffle, CountMinSketch());
      report_(std::move(carrying));
      return;
    }
  } else {
    if (t.index < job.reduce_output.size()) report.output_bytes = job.reduce_output[t.index];
    report.remote_input_bytes = static_cast<uint64_t>(r.remote_bytes);
  }
  report_(std::move(report));
}

void SimExecutor::Cancel(SlotId slot, uint64_t token) {
  Running& r = running_.at(slot);
  if (r.token != token) return;
  // The abort is reported from an event of its own: Cancel is called from inside the
  // Controller, which must not be re-entered.
  r.token = 0;
  TaskReport report;
  report.task = r.launch.task;
  report.token = token;
  report.slot = slot;
  report.status = Status::Aborted("preempted");
  report.start = r.start;
  report.end = loop_.Now();
  ++events_;
  loop_.Post([this, report = std::move(report)]() mutable { report_(std::move(report)); });
}

// Reduce work comes from the job's model, not from the plan's loads; over a network the
// plan says how much of the map output each reduce pulls (the sketch row it routes by).
void SimExecutor::SetPlan(JobId job, const ReducePlan& plan) {
  auto it = jobs_.find(job);
  if (it == jobs_.end() || !options_.network.active()) return;
  JobModel& m = it->second;
  const uint32_t reduces = static_cast<uint32_t>(m.job.reduce_work_s.size());
  m.reduce_units.assign(reduces, 0);
  const CountMinSketch& s = m.partitions;
  for (int row = 0; row < s.depth(); ++row) {
    if (!(s.hash(row) == plan.route)) continue;
    for (uint32_t p = 0; p < s.width() && p < plan.owner.size(); ++p)
      if (plan.owner[p] < reduces)
        m.reduce_units[plan.owner[p]] += static_cast<double>(s.Cells()[row * s.width() + p]);
    return;
  }
  double total = 0;  // no sketch of this plan's row: an even share
  for (uint64_t u : m.job.map_output) total += static_cast<double>(u);
  for (double& u : m.reduce_units) u = total / std::max<uint32_t>(reduces, 1);
}

// The bytes reduce `reduce` on `host` pulls from other hosts: its share of the map output
// times the fraction of that output made on other hosts, in wire bytes.
double SimExecutor::RemoteBytes(const JobModel& m, uint32_t reduce, int host) const {
  double all = 0, elsewhere = 0;
  for (size_t i = 0; i < m.job.map_output.size(); ++i) {
    const double u = static_cast<double>(m.job.map_output[i]);
    all += u;
    if (i < m.map_host.size() && m.map_host[i] != host) elsewhere += u;
  }
  if (all <= 0 || reduce >= m.reduce_units.size()) return 0;
  return m.reduce_units[reduce] * (elsewhere / all) * options_.network.wire_bytes_per_unit;
}

Status SimExecutor::FinishJob(JobId job, bool) {
  jobs_.erase(job);
  return Status::OK();
}

double SimExecutor::Progress(SlotId slot) const {
  const Running& r = running_.at(slot);
  if (r.token == 0 || r.end <= r.start) return 0;
  const Time now = loop_.Now();
  if (now <= r.start) return 0;
  // Work done by now over the whole, by bisection on the (monotone) end-time function.
  if (now <= r.compute_from) return 0;  // still pulling its input
  if (!profile_of_slot_[slot])
    return std::min(1.0, Seconds(now - r.compute_from) / Seconds(r.end - r.compute_from));
  double lo = 0, hi = r.work_s;
  for (int i = 0; i < 40; ++i) {
    double mid = (lo + hi) / 2;
    (EndOf(slot, r.compute_from, mid) <= now ? lo : hi) = mid;
  }
  return r.work_s > 0 ? lo / r.work_s : 0;
}

}  // namespace mrlocal
