#include "sched/core/fault_injection.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "sched/core/splitmix.h"
#include "sched/core/units.h"

namespace mrlocal {
namespace {

constexpr int kMaxTarget = 1 << 30;

Result<double> ParseNumber(std::string_view s, std::string_view what) {
  double v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v))
    return Status::InvalidArgument(std::string(what) + " '" + std::string(s) + "' is not a number");
  return v;
}

Result<int> ParseIndex(std::string_view s, std::string_view what) {
  int v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v < 0 || v >= kMaxTarget)
    return Status::InvalidArgument(std::string(what) + " '" + std::string(s) +
                                   "' is not an index in [0, " + std::to_string(kMaxTarget) + ")");
  return v;
}

// "from=T": 0 means the start (ParseDuration refuses a zero).
Result<Duration> ParseFrom(std::string_view s) {
  if (s == "0") return Duration::zero();
  Result<Duration> d = ParseDuration(s);
  if (!d.ok()) return d.status().WithContext("from: ");
  return d;
}

std::vector<std::string_view> Split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  size_t at = 0;
  while (true) {
    const size_t next = text.find(sep, at);
    parts.push_back(text.substr(at, next == std::string_view::npos ? text.npos : next - at));
    if (next == std::string_view::npos) return parts;
    at = next + 1;
  }
}

struct KindName {
  std::string_view name;
  Fault::Kind kind;
};
constexpr KindName kKinds[] = {{"task-fail", Fault::Kind::kTaskFail},
                               {"slot-fail", Fault::Kind::kSlotFail},
                               {"node-fail", Fault::Kind::kNodeFail},
                               {"node-slow", Fault::Kind::kNodeSlow},
                               {"replica-corrupt", Fault::Kind::kReplicaCorrupt},
                               {"replica-lost", Fault::Kind::kReplicaLost}};

// "'TEXT' WHAT", built by appends (GCC 12 warns, wrongly, of "'" + std::string(...)).
Status Refuse(std::string_view text, std::string_view what) {
  std::string m = "'";
  m.append(text).append("' ").append(what);
  return Status::InvalidArgument(std::move(m));
}

// One "key=value" option of fault `f`.
Status ParseOption(std::string_view option, Fault& f) {
  const size_t eq = option.find('=');
  if (eq == std::string_view::npos) return Refuse(option, "is not KEY=VALUE");
  const std::string_view key = option.substr(0, eq), value = option.substr(eq + 1);
  using K = Fault::Kind;
  const bool task = f.kind == K::kTaskFail,
             replica = f.kind == K::kReplicaCorrupt || f.kind == K::kReplicaLost;
  if (task && key == "app" && !value.empty()) {
    f.app = value;
  } else if (task && key == "kind" && (value == "map" || value == "reduce")) {
    f.task_kind = value == "map" ? TaskKind::kMap : TaskKind::kReduce;
  } else if (task && key == "seed") {
    uint64_t seed = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seed);
    if (ec != std::errc() || end != value.data() + value.size() || value.empty())
      return Refuse(value, "is not a seed (an integer from 0 to 18446744073709551615)");
    f.seed = seed;
  } else if (!task && !replica && key == "from") {
    Result<Duration> from = ParseFrom(value);
    if (!from.ok()) return from.status();
    f.from = *from;
  } else if (f.kind == K::kNodeSlow && key == "factor") {
    Result<double> v = ParseNumber(value, "factor");
    if (!v.ok()) return v.status();
    if (!(*v > 0 && *v <= 1)) return Status::InvalidArgument("factor must be in (0, 1]");
    f.factor = *v;
  } else if (replica && key == "node") {
    Result<int> n = ParseIndex(value, "node");
    if (!n.ok()) return n.status();
    f.node = *n;
  } else {
    return Refuse(option, "is not an option of this fault");
  }
  return Status::OK();
}

}  // namespace

Result<Fault> ParseFault(std::string_view text) {
  const auto context = [&](const Status& s) {
    return s.WithContext("fault '" + std::string(text) + "': ");
  };
  std::vector<std::string_view> parts = Split(text, ',');
  const size_t colon = parts[0].find(':');
  Fault f;
  f.text = text;
  const std::string_view name = parts[0].substr(0, colon);
  auto kind = std::find_if(std::begin(kKinds), std::end(kKinds),
                           [&](const KindName& k) { return k.name == name; });
  if (kind == std::end(kKinds) || colon == std::string_view::npos)
    return context(Status::InvalidArgument(
        "expected task-fail:P, slot-fail:SLOT, node-fail:NODE, node-slow:NODE,factor=F, "
        "replica-corrupt:MAP or replica-lost:MAP"));
  f.kind = kind->kind;
  const std::string_view value = parts[0].substr(colon + 1);
  if (f.kind == Fault::Kind::kTaskFail) {
    Result<double> p = ParseNumber(value, "probability");
    if (!p.ok()) return context(p.status());
    if (!(*p >= 0 && *p <= 1)) return context(Status::InvalidArgument("P must be in [0, 1]"));
    f.probability = *p;
  } else {
    Result<int> target = ParseIndex(
        value, f.kind == Fault::Kind::kSlotFail                                       ? "slot"
               : f.kind == Fault::Kind::kNodeFail || f.kind == Fault::Kind::kNodeSlow ? "node"
                                                                                      : "map");
    if (!target.ok()) return context(target.status());
    f.target = *target;
  }
  bool factor = false;
  for (size_t i = 1; i < parts.size(); ++i) {
    if (Status s = ParseOption(parts[i], f); !s.ok()) return context(s);
    factor |= parts[i].starts_with("factor=");
  }
  if (f.kind == Fault::Kind::kNodeSlow && !factor)
    return context(Status::InvalidArgument("node-slow needs factor=F"));
  return f;
}

Result<std::vector<Fault>> ParseFaults(const std::vector<std::string>& texts) {
  std::vector<Fault> faults;
  for (const std::string& t : texts) {
    Result<Fault> f = ParseFault(t);
    if (!f.ok()) return f.status();
    faults.push_back(std::move(f).value());
  }
  return faults;
}

FaultInjector::FaultInjector(std::vector<Fault> faults, uint64_t seed)
    : faults_(std::move(faults)), seed_(seed) {}

Status FaultInjector::CheckCluster(const std::vector<SlotInfo>& slots, int nodes) const {
  for (const Fault& f : faults_) {
    const bool slot = f.kind == Fault::Kind::kSlotFail;
    const bool node = f.kind == Fault::Kind::kNodeFail || f.kind == Fault::Kind::kNodeSlow;
    const int have = slot ? static_cast<int>(slots.size()) : nodes;
    const int which = node || slot ? f.target : f.node;
    if ((slot || node || f.node >= 0) && which >= have)
      return Status::InvalidArgument("fault '" + f.text + "': the cluster has " +
                                     std::to_string(have) + (slot ? " slots" : " nodes") +
                                     " (numbered from 0)");
  }
  return Status::OK();
}

AttemptFault FaultInjector::ForAttempt(const TaskRef& task, uint32_t attempt, SlotId slot,
                                       NodeId node, Time start) const {
  AttemptFault out;
  const std::string name = std::string(ToString(task.kind)) + " " + std::to_string(task.index) +
                           " attempt " + std::to_string(attempt);
  for (size_t i = 0; i < faults_.size(); ++i) {
    const Fault& f = faults_[i];
    switch (f.kind) {
      case Fault::Kind::kTaskFail: {
        if (f.task_kind && *f.task_kind != task.kind) break;
        if (!f.app.empty()) {
          auto it = apps_.find(task.job);
          if (it == apps_.end() || it->second != f.app) break;
        }
        uint64_t h = SplitMix(f.seed.value_or(seed_) ^ SplitMix(i + 1));
        h = SplitMix(h ^ task.job);
        h = SplitMix(h ^ (uint64_t{task.index} << 1 | (task.kind == TaskKind::kReduce)));
        h = SplitMix(h ^ attempt);
        if (UnitOf(h) >= f.probability) break;
        const double at = UnitOf(SplitMix(h));
        if (!out.at_fraction || at < *out.at_fraction) {
          out.at_fraction = at;
          out.why = f.text + " (" + name + ")";
        }
        break;
      }
      case Fault::Kind::kSlotFail:
      case Fault::Kind::kNodeFail: {
        const bool hit = f.kind == Fault::Kind::kSlotFail ? f.target == slot : f.target == node;
        if (!hit) break;
        const Time at = std::max(start, Time{0} + f.from);
        if (!out.at_time || at < *out.at_time) {
          out.at_time = at;
          if (!out.at_fraction) out.why = f.text + " (" + name + ")";
        }
        break;
      }
      default:
        break;
    }
  }
  return out;
}

std::map<NodeId, SpeedProfile> FaultInjector::SlowProfiles() const {
  std::map<NodeId, std::map<Duration, double>> steps;  // node -> from -> product of factors
  for (const Fault& f : faults_)
    if (f.kind == Fault::Kind::kNodeSlow) {
      auto [it, fresh] = steps[f.target].emplace(f.from, f.factor);
      if (!fresh) it->second *= f.factor;
    }
  std::map<NodeId, SpeedProfile> out;
  for (const auto& [node, by_time] : steps) {
    SpeedProfile& p = out[node];
    double factor = 1;
    for (const auto& [from, f] : by_time) {
      factor *= f;
      p.Add(Time{0} + from, factor);
    }
  }
  return out;
}

std::vector<ReplicaFault> FaultInjector::ReplicaFaults() const {
  std::vector<ReplicaFault> out;
  for (const Fault& f : faults_)
    if (f.of_replica())
      out.push_back({static_cast<uint32_t>(f.target), f.node, f.kind == Fault::Kind::kReplicaLost});
  return out;
}

}  // namespace mrlocal
