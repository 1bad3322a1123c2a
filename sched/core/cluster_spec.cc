#include "sched/core/cluster_spec.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>

namespace mrlocal {
namespace {

constexpr std::string_view kForm =
    "N x (Mm,Rr,S[,Tt]), e.g. 2x(4m,1r,1.0)+1x(2m,1r,0.5) or 50x(1m,1r,1.0,1t)";

// A cursor over the spec text that skips whitespace before every token.
class Reader {
 public:
  explicit Reader(std::string_view t) : t_(t) {}

  // Position of the next token (1-based, for messages).
  size_t pos() {
    SkipSpace();
    return i_ + 1;
  }
  bool AtEnd() {
    SkipSpace();
    return i_ == t_.size();
  }
  bool Eat(char c) {  // c is lower case; the text may be either
    SkipSpace();
    if (i_ < t_.size() && std::tolower(static_cast<unsigned char>(t_[i_])) == c) {
      ++i_;
      return true;
    }
    return false;
  }
  // A run of digits; values too large for `int` saturate to INT_MAX (then fail limits).
  bool Int(int64_t* v) {
    std::string_view run = Run([](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    if (run.empty()) return false;
    *v = 0;
    for (char c : run) *v = std::min<int64_t>(*v * 10 + (c - '0'), INT32_MAX);
    return true;
  }
  // A plain decimal: digits with at most one '.', no sign or exponent.
  bool Decimal(double* v) {
    std::string_view run =
        Run([](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '.'; });
    if (run.empty() || std::count(run.begin(), run.end(), '.') > 1 || run == ".") return false;
    auto [end, ec] = std::from_chars(run.data(), run.data() + run.size(), *v);
    return ec == std::errc() && end == run.data() + run.size();
  }

 private:
  void SkipSpace() {
    while (i_ < t_.size() && std::isspace(static_cast<unsigned char>(t_[i_]))) ++i_;
  }
  template <class Pred>
  std::string_view Run(Pred pred) {
    SkipSpace();
    size_t start = i_;
    while (i_ < t_.size() && pred(t_[i_])) ++i_;
    return t_.substr(start, i_ - start);
  }

  std::string_view t_;
  size_t i_ = 0;
};

std::string FormatSpeed(double speed) {
  // Shortest fixed-point text that reads back to the same double; "1.0", not "1". A speed
  // in (0, 1] takes up to "0." and 340 digits (the smallest double is 4.9e-324).
  char buf[400];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, speed, std::chars_format::fixed);
  std::string s = ec == std::errc() ? std::string(buf, end) : "1";
  if (s.find('.') == std::string::npos) s += ".0";
  return s;
}

}  // namespace

Result<ClusterSpec> ClusterSpec::Parse(std::string_view text) {
  Reader r(text);
  auto fail = [&](std::string_view what, size_t pos) {
    return Status::InvalidArgument("--cluster '" + std::string(text) + "': " + std::string(what) +
                                   " at position " + std::to_string(pos) +
                                   " (form: " + std::string(kForm) + ")");
  };
  std::vector<NodeGroup> groups;
  int64_t nodes = 0, slots = 0;
  do {
    int64_t n, m, red;
    double s;
    const size_t group_at = r.pos();
    size_t at = group_at;
    if (!r.Int(&n)) return fail("expected a node count", at);
    if (n < 1) return fail("a group needs at least 1 node", at);
    if (!r.Eat('x')) return fail("expected 'x' after the node count", r.pos());
    if (!r.Eat('(')) return fail("expected '('", r.pos());
    at = r.pos();
    if (!r.Int(&m)) return fail("expected the number of map slots", at);
    if (m > kMaxSlotsPerNode)
      return fail("more than " + std::to_string(kMaxSlotsPerNode) + " map slots per node", at);
    if (!r.Eat('m')) return fail("expected 'm' after the map slots", r.pos());
    if (!r.Eat(',')) return fail("expected ','", r.pos());
    at = r.pos();
    if (!r.Int(&red)) return fail("expected the number of reduce slots", at);
    if (red > kMaxSlotsPerNode)
      return fail("more than " + std::to_string(kMaxSlotsPerNode) + " reduce slots per node", at);
    if (!r.Eat('r')) return fail("expected 'r' after the reduce slots", r.pos());
    if (!r.Eat(',')) return fail("expected ',' and a speed", r.pos());
    at = r.pos();
    if (!r.Decimal(&s)) return fail("expected a speed in (0, 1] such as 0.5", at);
    if (!(s > 0 && s <= 1)) return fail("speed must be in (0, 1]", at);
    int64_t t = 0;
    if (r.Eat(',')) {
      at = r.pos();
      if (!r.Int(&t)) return fail("expected the node's task limit such as 1t", at);
      if (t < 1 || t > m + red)
        return fail("a node's task limit must be 1 to its slots (" + std::to_string(m + red) + ")",
                    at);
      if (!r.Eat('t')) return fail("expected 't' after the task limit", r.pos());
    }
    if (!r.Eat(')')) return fail("expected ')'", r.pos());
    nodes += n;
    slots += n * (m + red);
    if (nodes > kMaxNodes)
      return fail("more than " + std::to_string(kMaxNodes) + " nodes", group_at);
    if (slots > kMaxSlots)
      return fail("more than " + std::to_string(kMaxSlots) + " slots", group_at);
    groups.push_back(
        {static_cast<int>(n), static_cast<int>(m), static_cast<int>(red), s, static_cast<int>(t)});
  } while (r.Eat('+'));
  if (!r.AtEnd()) return fail("expected '+' or the end", r.pos());
  ClusterSpec spec(std::move(groups));
  if (spec.map_slots() < 1 || spec.reduce_slots() < 1)
    return Status::InvalidArgument("--cluster '" + std::string(text) +
                                   "': the cluster needs at least one map slot and one reduce "
                                   "slot");
  return spec;
}

ClusterSpec ClusterSpec::Default(int cpus) {
  return ClusterSpec({NodeGroup{std::clamp(cpus, 1, kMaxNodes), 1, 1, 1.0}});
}

std::string ClusterSpec::ToString() const {
  std::string s;
  for (const NodeGroup& g : groups_) {
    if (!s.empty()) s += '+';
    s += std::to_string(g.count) + "x(" + std::to_string(g.map_slots) + "m," +
         std::to_string(g.reduce_slots) + "r," + FormatSpeed(g.speed);
    if (g.max_tasks > 0) {  // appended piecewise: GCC 12's -Wrestrict misfires on "," + string
      s += ',';
      s += std::to_string(g.max_tasks);
      s += 't';
    }
    s += ")";
  }
  return s;
}

int ClusterSpec::nodes() const {
  int n = 0;
  for (const NodeGroup& g : groups_) n += g.count;
  return n;
}

int ClusterSpec::map_slots() const {
  int n = 0;
  for (const NodeGroup& g : groups_) n += g.count * g.map_slots;
  return n;
}

int ClusterSpec::reduce_slots() const {
  int n = 0;
  for (const NodeGroup& g : groups_) n += g.count * g.reduce_slots;
  return n;
}

int ClusterSpec::TaskCapacity() const {
  int n = 0;
  for (const NodeGroup& g : groups_) {
    const int slots = g.map_slots + g.reduce_slots;
    n += g.count * (g.max_tasks > 0 ? std::min(g.max_tasks, slots) : slots);
  }
  return n;
}

std::vector<int> ClusterSpec::NodeTaskLimits() const {
  std::vector<int> limits;
  for (const NodeGroup& g : groups_) limits.insert(limits.end(), g.count, g.max_tasks);
  return limits;
}

std::vector<SlotInfo> ClusterSpec::Slots() const {
  std::vector<SlotInfo> slots;
  slots.reserve(static_cast<size_t>(map_slots()) + reduce_slots());
  for (SlotKind kind : {SlotKind::kMap, SlotKind::kReduce}) {
    NodeId node = 0;
    for (const NodeGroup& g : groups_) {
      const int per_node = kind == SlotKind::kMap ? g.map_slots : g.reduce_slots;
      for (int i = 0; i < g.count; ++i, ++node)
        for (int k = 0; k < per_node; ++k)
          slots.push_back({static_cast<SlotId>(slots.size()), kind, node, g.speed});
    }
  }
  return slots;
}

}  // namespace mrlocal
