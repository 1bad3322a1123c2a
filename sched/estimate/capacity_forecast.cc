#include "sched/estimate/capacity_forecast.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace mrlocal {
namespace {

// Keeps in `slowest` the smaller nonzero speed (0: none yet).
void KeepSlowest(double& slowest, double speed) {
  if (speed > 0 && (slowest == 0 || speed < slowest)) slowest = speed;
}

}  // namespace

CapacityForecast::CapacityForecast(const std::vector<SlotInfo>& slots) {
  std::unordered_map<NodeId, size_t> index;
  node_of_slot_.resize(slots.size());
  base_speed_.resize(slots.size());
  for (const SlotInfo& s : slots) {
    auto [it, fresh] = index.emplace(s.node, nodes_.size());
    if (fresh) nodes_.push_back({s.node, {}});
    nodes_[it->second].rate[Index(s.kind)] += s.speed;
    KeepSlowest(nodes_[it->second].slowest[Index(s.kind)], s.speed);
    node_of_slot_.at(static_cast<size_t>(s.id)) = it->second;
    base_speed_.at(static_cast<size_t>(s.id)) = s.speed;
  }
  factor_.assign(nodes_.size(), 1.0);
}

void CapacityForecast::Observe(const SlotInfo& slot_now, Time at) {
  const size_t slot = static_cast<size_t>(slot_now.id);
  const size_t node = node_of_slot_.at(slot);
  told_until_ = std::max(told_until_, at);
  const double factor = slot_now.speed / base_speed_[slot];
  if (factor == factor_[node]) return;  // the node's other slots, or a repeat
  NodeChanged(node, factor, at);
  factor_[node] = factor;
}

KnownForecast::KnownForecast(const std::vector<SlotInfo>& slots,
                             const std::map<NodeId, SpeedProfile>& profiles)
    : CapacityForecast(slots) {
  for (const Node& n : nodes()) {
    auto p = profiles.find(n.id);
    Group* group = &unprofiled_;
    if (p != profiles.end()) {
      auto same = std::find_if(groups_.begin(), groups_.end(), [&](const Group& g) {
        return g.profile.times() == p->second.times() && g.profile.factors() == p->second.factors();
      });
      if (same == groups_.end()) same = groups_.insert(groups_.end(), {p->second, {}, {}});
      group = &*same;
    }
    for (size_t k = 0; k < 2; ++k) {
      group->rate[k] += n.rate[k];
      KeepSlowest(group->slowest[k], n.slowest[k]);
    }
  }
}

double KnownForecast::PredictWork(SlotKind kind, Time t0, Time t1) const {
  const size_t k = Index(kind);
  double work = unprofiled_.rate[k] * Seconds(t1 - t0);
  for (const Group& g : groups_)
    if (g.rate[k] > 0) work += g.rate[k] * g.profile.Integral(t0, t1);
  return work;
}

// In a group, the slowest slot ends last: its nodes share the availability.
std::optional<Time> KnownForecast::LatestEndOf(SlotKind kind, Time from, double work) const {
  const size_t k = Index(kind);
  Time latest = from;
  if (unprofiled_.slowest[k] > 0)
    latest = std::max(latest, from + FromSeconds(work / unprofiled_.slowest[k]));
  for (const Group& g : groups_)
    if (g.slowest[k] > 0) latest = std::max(latest, g.profile.EndOf(from, work, g.slowest[k]));
  return latest;
}

ConstantForecast::ConstantForecast(const std::vector<SlotInfo>& slots) : CapacityForecast(slots) {
  for (const Node& n : nodes())
    for (size_t k = 0; k < 2; ++k) rate_[k] += n.rate[k];
}

void ConstantForecast::NodeChanged(size_t node, double factor, Time) {
  for (size_t k = 0; k < 2; ++k) rate_[k] += nodes()[node].rate[k] * (factor - told(node));
}

LearnedForecast::LearnedForecast(const std::vector<SlotInfo>& slots, LearnedForecastOptions options)
    : CapacityForecast(slots), options_(options), unchanged_rate_{} {
  if (options_.window <= Duration{0}) options_.window = LearnedForecastOptions::kDefaultWindow;
  history_.resize(nodes().size());
  for (const Node& n : nodes())
    for (size_t k = 0; k < 2; ++k) unchanged_rate_[k] += n.rate[k];
}

// The time-weighted average with weight exp(-(now - s) / window) on the availability at s:
// over a span at one factor it decays toward that factor.
double LearnedForecast::AverageAt(const History& h, Time now) const {
  if (now <= h.since) return h.average;
  const double keep = std::exp(-Seconds(now - h.since) / Seconds(options_.window));
  return h.factor + (h.average - h.factor) * keep;
}

void LearnedForecast::NodeChanged(size_t node, double factor, Time at) {
  History& h = history_[node];
  if (h.observed.empty()) {
    changed_.push_back(node);
    for (size_t k = 0; k < 2; ++k) unchanged_rate_[k] -= nodes()[node].rate[k];
  }
  h.average = AverageAt(h, at);
  h.factor = factor;
  h.since = std::max(h.since, at);
  h.observed.SetFrom(at, factor);
}

double LearnedForecast::RepeatedIntegral(const History& h, Time now, Duration span) const {
  const Duration period = options_.period;
  const Time start = now - period;  // the last period observed
  const double average = AverageAt(h, now);
  // Over [start, start + length): what was observed since the run began, the average
  // before it.
  auto window = [&](Duration length) {
    const Time end = start + length;
    const Time observed_from = std::max(start, Time{0});
    const double before = Seconds(std::min(end, Time{0}) - start) * average;
    return std::max(0.0, before) +
           (end > observed_from ? h.observed.Integral(observed_from, end) : 0.0);
  };
  return static_cast<double>(span / period) * window(period) + window(span % period);
}

double LearnedForecast::FutureIntegral(const History& h, Time now, Time from, Time to) const {
  if (options_.period <= Duration{0}) return AverageAt(h, now) * Seconds(to - from);
  return RepeatedIntegral(h, now, to - now) - RepeatedIntegral(h, now, from - now);
}

double LearnedForecast::PredictWork(SlotKind kind, Time t0, Time t1) const {
  const size_t k = Index(kind);
  const Time now = Present();
  double work = unchanged_rate_[k] * Seconds(t1 - t0);
  for (size_t node : changed_) {
    const double rate = nodes()[node].rate[k];
    if (rate == 0) continue;
    const History& h = history_[node];
    double integral = 0;
    if (t0 < now) integral += h.observed.Integral(t0, std::min(t1, now));  // the past: seen
    if (t1 > now) integral += FutureIntegral(h, now, std::max(t0, now), t1);
    work += rate * integral;
  }
  return work;
}

}  // namespace mrlocal
