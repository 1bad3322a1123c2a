#include "sched/cluster_spec.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>

namespace mrlocal {
namespace {

// A tiny recursive-descent reader over the spec text, with the error position.
class Reader {
 public:
  explicit Reader(std::string_view t) : t_(t) {}
  void SkipSpace() {
    while (i_ < t_.size() && std::isspace(static_cast<unsigned char>(t_[i_]))) ++i_;
  }
  bool Eat(char c) {
    SkipSpace();
    if (i_ < t_.size() && std::tolower(static_cast<unsigned char>(t_[i_])) == c) {
      ++i_;
      return true;
    }
    return false;
  }
  bool Int(long* v) {
    SkipSpace();
    size_t start = i_;
    while (i_ < t_.size() && std::isdigit(static_cast<unsigned char>(t_[i_]))) ++i_;
    if (i_ == start || i_ - start > 6) return false;
    *v = std::strtol(std::string(t_.substr(start, i_ - start)).c_str(), nullptr, 10);
    return true;
  }
  bool Number(double* v) {
    SkipSpace();
    size_t start = i_;
    while (i_ < t_.size() && (std::isdigit(static_cast<unsigned char>(t_[i_])) || t_[i_] == '.')) ++i_;
    if (i_ == start) return false;
    char* end;
    std::string s(t_.substr(start, i_ - start));
    *v = std::strtod(s.c_str(), &end);
    return *end == '\0';
  }
  bool AtEnd() {
    SkipSpace();
    return i_ == t_.size();
  }
  size_t pos() const { return i_; }

 private:
  std::string_view t_;
  size_t i_ = 0;
};

}  // namespace

Result<ClusterSpec> ClusterSpec::Parse(std::string_view text) {
  Reader r(text);
  std::vector<NodeGroup> groups;
  auto fail = [&](const std::string& what) {
    return Status::InvalidArgument("--cluster '" + std::string(text) + "': " + what +
                                   " at position " + std::to_string(r.pos() + 1) +
                                   " (expected groups like '2x(4m,1r,1.0)+1x(2m,1r,0.5)')");
  };
  do {
    NodeGroup g;
    long n, m, red;
    double s;
    if (!r.Int(&n)) return fail("expected a node count");
    if (!r.Eat('x')) return fail("expected 'x'");
    if (!r.Eat('(')) return fail("expected '('");
    if (!r.Int(&m)) return fail("expected the number of map slots");
    if (!r.Eat('m')) return fail("expected 'm' after the map slots");
    if (!r.Eat(',')) return fail("expected ','");
    if (!r.Int(&red)) return fail("expected the number of reduce slots");
    if (!r.Eat('r')) return fail("expected 'r' after the reduce slots");
    if (!r.Eat(',')) return fail("expected ',' and a speed");
    if (!r.Number(&s)) return fail("expected a speed in (0, 1]");
    if (!r.Eat(')')) return fail("expected ')'");
    if (n < 1) return fail("a group needs at least 1 node");
    if (!(s > 0 && s <= 1)) return fail("speed must be in (0, 1]");
    g.count = static_cast<int>(n);
    g.map_slots = static_cast<int>(m);
    g.reduce_slots = static_cast<int>(red);
    g.speed = s;
    groups.push_back(g);
  } while (r.Eat('+'));
  if (!r.AtEnd()) return fail("unexpected text");
  ClusterSpec spec(std::move(groups));
  if (spec.nodes() > 4096) return fail("more than 4096 nodes");
  if (spec.map_slots() < 1 || spec.reduce_slots() < 1)
    return Status::InvalidArgument("--cluster '" + std::string(text) +
                                   "': the cluster needs at least one map slot and one reduce slot");
  return spec;
}

ClusterSpec ClusterSpec::Default(int cpus) {
  return ClusterSpec({NodeGroup{std::max(cpus, 1), 1, 1, 1.0}});
}

std::string ClusterSpec::ToString() const {
  std::string s;
  for (auto& g : groups_) {
    char speed[32];
    std::snprintf(speed, sizeof speed, "%g", g.speed);
    std::string sp = speed;
    if (sp.find('.') == std::string::npos) sp += ".0";  // "1.0", as users write it
    char buf[96];
    std::snprintf(buf, sizeof buf, "%dx(%dm,%dr,%s)", g.count, g.map_slots, g.reduce_slots, sp.c_str());
    if (!s.empty()) s += "+";
    s += buf;
  }
  return s;
}

int ClusterSpec::nodes() const {
  int n = 0;
  for (auto& g : groups_) n += g.count;
  return n;
}
int ClusterSpec::map_slots() const {
  int n = 0;
  for (auto& g : groups_) n += g.count * g.map_slots;
  return n;
}
int ClusterSpec::reduce_slots() const {
  int n = 0;
  for (auto& g : groups_) n += g.count * g.reduce_slots;
  return n;
}

std::vector<SlotInfo> ClusterSpec::Slots() const {
  std::vector<SlotInfo> slots;
  for (SlotKind kind : {SlotKind::kMap, SlotKind::kReduce}) {
    NodeId node = 0;
    for (auto& g : groups_) {
      for (int i = 0; i < g.count; ++i, ++node) {
        int n = kind == SlotKind::kMap ? g.map_slots : g.reduce_slots;
        for (int k = 0; k < n; ++k)
          slots.push_back({static_cast<SlotId>(slots.size()), kind, node, g.speed});
      }
    }
  }
  return slots;
}

}  // namespace mrlocal
