// The capacity left to MapReduce ahead, f(t) of the Reverse-Adaptive scheduler (Polo et
// al., "Adaptive MapReduce scheduling in shared environments", CCGrid 2014; DESIGN.md
// (shared) §3): how much work the cluster's slots will do over a span of time, when
// other load (a web service) takes a varying share of the nodes. A policy asks it; the
// front end (tools/runtime) makes one for each run and tells it what the cluster shows.
//
// Work is seconds of a task at speed 1.0 (DESIGN.md (shared), "Work"): a slot of base
// speed s on a node at availability a(t) does s x integral of a over a span. Three kinds,
// by what they know of a(t):
//   KnownForecast     each node's profile, given in advance (the spec's availability, or a
//                     separate forecast of it that may be wrong): the paper's predictable
//                     external load;
//   LearnedForecast   only what the cluster has shown so far (below);
//   ConstantForecast  the availability the cluster shows now, held for ever: what the
//                     plain Adaptive scheduler assumes.
//
// Thread safety: none; a run's loop thread asks and tells it.
#pragma once

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <vector>

#include "sched/core/clock.h"
#include "sched/core/slot_info.h"
#include "sched/core/speed_profile.h"

namespace mrlocal {

class CapacityForecast {
 public:
  // `slots` at their base speeds (availability 1).
  explicit CapacityForecast(const std::vector<SlotInfo>& slots);
  virtual ~CapacityForecast() = default;

  // The expected work the slots of `kind` do in [t0, t1); 0 when t1 <= t0. Exact for step
  // profiles, up to rounding.
  double Work(SlotKind kind, Time t0, Time t1) const {
    return t1 <= t0 ? 0 : PredictWork(kind, t0, t1);
  }
  // When a task of `work` seconds at speed 1.0 that starts at `from` ends on the slot of
  // `kind` where it would end last, each slot at its base speed times its node's
  // availability as known in advance: a bound that holds whichever slot the task gets.
  // None when the forecast knows no availability in advance (constant, learned): the
  // caller keeps its estimate at the speeds the cluster shows. REQUIRES: work >= 0.
  virtual std::optional<Time> LatestEndOf(SlotKind /*kind*/, Time /*from*/, double /*work*/) const {
    return std::nullopt;
  }
  // Slot `slot_now.id` runs at `slot_now.speed` from `at` on: its node's availability is
  // that over the slot's base speed. Telling the same twice changes nothing, so several
  // callers may tell it. REQUIRES: a slot of the constructor's list; `at` not before what
  // it was told last.
  void Observe(const SlotInfo& slot_now, Time at);
  // The run's clock (the runtime's loop), so that a forecast that learns knows how long
  // what it was told last has held: without one, only until it was told. Null: none.
  // REQUIRES: the clock outlives the forecast's use.
  void SetClock(const Clock* clock) { clock_ = clock; }

 protected:
  // Per node, by SlotKind: the sum of its slots' base speeds, and the slowest (0: none).
  struct Node {
    NodeId id = 0;
    std::array<double, 2> rate{};
    std::array<double, 2> slowest{};
  };
  const std::vector<Node>& nodes() const { return nodes_; }
  static size_t Index(SlotKind kind) { return kind == SlotKind::kMap ? 0 : 1; }
  // Node nodes()[node]'s availability as last told (1.0 until then); inside NodeChanged,
  // the one before the change.
  double told(size_t node) const { return factor_[node]; }
  // The present: what the cluster shows is known up to it (the clock's time, or the last
  // time anything was told).
  Time Present() const { return clock_ ? std::max(clock_->Now(), told_until_) : told_until_; }

 private:
  virtual double PredictWork(SlotKind kind, Time t0, Time t1) const = 0;
  // Node nodes()[node] is at `factor` from `at` on: a change from what it was told before.
  virtual void NodeChanged(size_t node, double factor, Time at) = 0;

  std::vector<Node> nodes_;
  std::vector<size_t> node_of_slot_;  // index in nodes_
  std::vector<double> base_speed_;    // per slot
  std::vector<double> factor_;        // per node, last told (1.0 at first)
  Time told_until_{0};
  const Clock* clock_ = nullptr;
};

// The profiles given, by node (a node without one: 1.0 at all times); what the cluster
// shows is ignored.
class KnownForecast final : public CapacityForecast {
 public:
  KnownForecast(const std::vector<SlotInfo>& slots, const std::map<NodeId, SpeedProfile>& profiles);

  std::optional<Time> LatestEndOf(SlotKind kind, Time from, double work) const override;

 private:
  double PredictWork(SlotKind kind, Time t0, Time t1) const override;
  void NodeChanged(size_t, double, Time) override {}

  // The nodes that share a profile (a spec gives one to a list of nodes), integrated once;
  // the nodes without one are a group at 1.0. By SlotKind: the sum of the group's slots'
  // base speeds, and the slowest (0: none).
  struct Group {
    SpeedProfile profile;
    std::array<double, 2> rate{};
    std::array<double, 2> slowest{};
  };
  std::vector<Group> groups_;
  Group unprofiled_;
};

// Each node's last observed availability, held for ever (before and after).
class ConstantForecast final : public CapacityForecast {
 public:
  explicit ConstantForecast(const std::vector<SlotInfo>& slots);

 private:
  double PredictWork(SlotKind kind, Time t0, Time t1) const override {
    return rate_[Index(kind)] * Seconds(t1 - t0);
  }
  void NodeChanged(size_t node, double factor, Time at) override;

  std::array<double, 2> rate_{};  // sum over nodes of rate x availability
};

struct LearnedForecastOptions {
  // The load's period (a day: 86400 s); 0: none.
  Duration period{0};
  // The time constant of the moving average; 0: kDefaultWindow.
  Duration window{0};
  static constexpr Duration kDefaultWindow = std::chrono::minutes(5);
};

// From observations only. The past (before Present()) is what was observed. The future:
//   with a period P: each node's availability at t is what it was at t - P (or t - 2P...:
//     the last period observed, repeated), as an operator expects of a daily web load:
//     yesterday's curve is the best guess of today's. Times whose period-earlier point is
//     before the run started take the moving average below;
//   without: a time-weighted exponential moving average of the node's availability over
//     the recent past (time constant `window`), held forward. Not the last value held:
//     under bursts that would forecast a burst's low for ever while in one and full
//     capacity between them; the average forecasts the share bursts leave on the whole.
// Before anything is observed, every node is at 1.0 (what the cluster shows at first).
class LearnedForecast final : public CapacityForecast {
 public:
  LearnedForecast(const std::vector<SlotInfo>& slots, LearnedForecastOptions options);

 private:
  struct History {
    SpeedProfile observed;  // since the run started; 1.0 before the first change
    double average = 1.0;   // the moving average up to `since`
    double factor = 1.0;    // in force since `since`
    Time since{0};
  };
  double PredictWork(SlotKind kind, Time t0, Time t1) const override;
  void NodeChanged(size_t node, double factor, Time at) override;
  double AverageAt(const History& h, Time now) const;
  // The integral of node h's forecast over [from, to), REQUIRES: now <= from <= to.
  double FutureIntegral(const History& h, Time now, Time from, Time to) const;
  // The integral over [now, now + span) of the last period repeated; REQUIRES: span >= 0.
  double RepeatedIntegral(const History& h, Time now, Duration span) const;

  LearnedForecastOptions options_;
  std::vector<History> history_;          // per node
  std::vector<size_t> changed_;           // the nodes told of a change, in that order
  std::array<double, 2> unchanged_rate_;  // the others': always 1.0
};

}  // namespace mrlocal
