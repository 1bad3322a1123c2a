#include "datasets/graph_generator.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <functional>
#include <thread>
#include <utility>
#include <vector>

#include "datasets/alias_table.h"

namespace mrlocal {
namespace {

uint64_t Mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

struct SplitMix {
  uint64_t s;
  uint64_t Next() { return Mix64(s += 0x9E3779B97F4A7C15ull); }
};

// floor(x * n / 2^64): a uniform draw in [0, n) from 64 random bits, without division.
uint64_t Scale(uint64_t x, uint64_t n) {
  return static_cast<uint64_t>((static_cast<unsigned __int128>(x) * n) >> 64);
}

// A seeded bijection of [0, n): rounds of (multiply by odd, add, xor-shift) are bijections
// of [0, 2^k) >= n, and walking the cycle until the value falls below n keeps it one.
class Permutation {
 public:
  Permutation(uint64_t n, uint64_t seed) : n_(n) {
    const int k = std::bit_width(n - 1);  // n >= 2
    mask_ = k >= 64 ? ~0ull : (1ull << k) - 1;
    shift_ = (k + 1) / 2;
    SplitMix rng{seed ^ 0x5EEDBA5EBA11ull};
    for (auto& r : rounds_) r = {rng.Next() | 1, rng.Next()};
  }
  uint64_t operator()(uint64_t x) const {
    do {
      for (const auto& [mul, add] : rounds_) {
        x = (x * mul + add) & mask_;
        x ^= x >> shift_;
      }
    } while (x >= n_);
    return x;
  }

 private:
  struct Round {
    uint64_t mul, add;
  };
  uint64_t n_, mask_;
  int shift_;
  Round rounds_[3];
};

// ---- Chung-Lu -------------------------------------------------------------------------

// Node i has weight (i + 1)^-alpha. Nodes are grouped into bins of consecutive ids whose
// weights differ by at most 1%, and a node is drawn as (bin by its total weight, then
// uniformly inside it): the table has a few thousand entries even for 2^32 nodes and stays
// in cache, and the model's expectations below are exact sums over bins.
struct Bins {
  std::vector<uint64_t> lo, size;
  std::vector<double> p;  // probability of each node of the bin

  Bins(double alpha, uint64_t n) {
    const double rho = alpha > 1e-9 ? std::exp(std::log(1.01) / alpha) : HUGE_VAL;
    std::vector<double> mass;
    double total = 0;
    for (uint64_t a = 0; a < n;) {
      double end = std::floor((static_cast<double>(a) + 1) * rho);
      uint64_t b = end >= static_cast<double>(n) ? n : std::max(a + 1, static_cast<uint64_t>(end));
      double m = 0;
      if (b - a <= 64) {
        for (uint64_t i = a; i < b; ++i) m += std::pow(static_cast<double>(i) + 1, -alpha);
      } else {  // midpoint rule: the sum of x^-alpha over x = a+1..b, as an integral
        double x0 = static_cast<double>(a) + 0.5, x1 = static_cast<double>(b) + 0.5;
        double t = 1 - alpha, len = std::log(x1 / x0);
        m = std::pow(x0, t) * (std::fabs(t) > 1e-12 ? std::expm1(t * len) / t : len);
      }
      lo.push_back(a);
      size.push_back(b - a);
      mass.push_back(m);
      total += m;
      a = b;
    }
    for (size_t k = 0; k < mass.size(); ++k) p.push_back(mass[k] / total / size[k]);
  }
};

// Expected max/mean distinct-neighbour degree of Chung-Lu with `alpha`. An edge is the
// unordered pair {i, j} with probability q = 2 p_i p_j / (1 - sum p^2) (self-loops are drawn
// again), so the pair is present with probability 1 - exp(-E q); node 0 has the largest
// expected degree, and a node is isolated with probability exp(-E * 2 p_i (1 - p_i) /
// (1 - sum p^2)).
double ChungLuSkew(double alpha, uint64_t n, uint64_t e) {
  const Bins bins(alpha, n);
  const size_t nb = bins.p.size();
  const double edges = static_cast<double>(e);
  double loops = 0;
  for (size_t k = 0; k < nb; ++k) loops += bins.size[k] * bins.p[k] * bins.p[k];
  const double c = 2 * edges / (1 - loops);
  auto f = [c](double x) { return -std::expm1(-c * x); };
  double d0 = 0, isolated = 0;
  for (size_t k = 0; k < nb; ++k) {
    d0 += static_cast<double>(bins.size[k] - (k == 0)) * f(bins.p[0] * bins.p[k]);
    isolated += bins.size[k] * std::exp(-c * bins.p[k] * (1 - bins.p[k]));
  }
  // Sum over ordered pairs of n_k n_l f(p_k p_l) = c - sum n_k n_l g(y), y = c p_k p_l,
  // g(y) = y - f = y^2/2 - y^3/6...: bins run from the heaviest, so once y is small for a
  // column, the rest of the row is y^2/2 from suffix sums.
  std::vector<double> suffix(nb + 1, 0);
  for (size_t k = nb; k-- > 0;) suffix[k] = suffix[k + 1] + bins.size[k] * bins.p[k] * bins.p[k];
  double g_sum = 0;
  for (size_t k = 0; k < nb; ++k) {
    const double nk = static_cast<double>(bins.size[k]);
    size_t l = 0;
    for (; l < nb; ++l) {
      double y = c * bins.p[k] * bins.p[l];
      if (y < 1e-3) break;
      g_sum += nk * bins.size[l] * (y + std::expm1(-y));
    }
    g_sum += nk * c * c * bins.p[k] * bins.p[k] / 2 * suffix[l];
  }
  double diagonal = 0;
  for (size_t k = 0; k < nb; ++k) diagonal += bins.size[k] * f(bins.p[k] * bins.p[k]);
  const double pairs = (c - g_sum - diagonal) / 2;
  const double mean = 2 * pairs / (static_cast<double>(n) - isolated);
  return d0 / mean;
}

// ---- R-MAT ----------------------------------------------------------------------------

// Quadrant probabilities in 1/65536: a, b = c, d, with b : d = 0.19 : 0.05.
struct RmatProbabilities {
  uint32_t a, b, d;
  explicit RmatProbabilities(double pa) {
    a = static_cast<uint32_t>(std::lround(pa * 65536));
    b = static_cast<uint32_t>(std::lround((65536.0 - a) * 0.19 / 0.43));
    d = 65536 - a - 2 * b;
  }
};

// How many ordered pairs (u, v) of [0, n)^2 have n00 levels (bit pairs, from the top of
// `scale` bits) of (0, 0) and n11 of (1, 1), the other levels differing; and how many
// j in [0, n) have popcount k. A digit DP over the bits of n - 1.
struct RmatCounts {
  int scale;
  std::vector<double> pairs;     // [n00 * (scale + 1) + n11]
  std::vector<double> popcount;  // [k]

  explicit RmatCounts(uint64_t n) : scale(std::bit_width(n - 1)) {
    const uint64_t m = n - 1;
    const int s1 = scale + 1;
    std::vector<double> cur(4 * s1 * s1, 0), next;
    auto at = [s1](std::vector<double>& v, int tu, int tv, int n00, int n11) -> double& {
      return v[((tu * 2 + tv) * s1 + n00) * s1 + n11];
    };
    at(cur, 1, 1, 0, 0) = 1;
    std::vector<double> pc_cur(2 * s1, 0), pc_next;
    pc_cur[1 * s1 + 0] = 1;
    for (int level = scale - 1; level >= 0; --level) {
      const int bit = (m >> level) & 1;
      next.assign(cur.size(), 0);
      for (int tu = 0; tu < 2; ++tu)
        for (int tv = 0; tv < 2; ++tv)
          for (int n00 = 0; n00 < s1; ++n00)
            for (int n11 = 0; n00 + n11 < s1; ++n11) {
              double c = at(cur, tu, tv, n00, n11);
              if (c == 0) continue;
              for (int bu = 0; bu < 2; ++bu) {
                if (tu && bu > bit) continue;
                for (int bv = 0; bv < 2; ++bv) {
                  if (tv && bv > bit) continue;
                  at(next, tu && bu == bit, tv && bv == bit, n00 + (!bu && !bv),
                     n11 + (bu && bv)) += c;
                }
              }
            }
      cur.swap(next);
      pc_next.assign(pc_cur.size(), 0);
      for (int t = 0; t < 2; ++t)
        for (int k = 0; k < s1; ++k)
          for (int bj = 0; bj < 2 && pc_cur[t * s1 + k] != 0; ++bj) {
            if (t && bj > bit) continue;
            if (k + bj < s1) pc_next[(t && bj == bit) * s1 + k + bj] += pc_cur[t * s1 + k];
          }
      pc_cur.swap(pc_next);
    }
    pairs.assign(s1 * s1, 0);
    for (int t = 0; t < 4; ++t)
      for (int i = 0; i < s1 * s1; ++i) pairs[i] += cur[t * s1 * s1 + i];
    popcount.assign(s1, 0);
    for (int k = 0; k < s1; ++k) popcount[k] = pc_cur[k] + pc_cur[s1 + k];
  }
};

// Expected max/mean distinct-neighbour degree of R-MAT with quadrant probability `a`. The
// ordered pair (u, v) is drawn with probability a^n00 b^nx d^n11 / Z (Z: the mass of pairs
// inside [0, n)^2 with u != v, as out-of-range and self-loop draws are drawn again); node 0
// has the largest expected degree. Isolated nodes use the per-node marginal (a + b)^zeros
// (b + d)^ones, which ignores the range's cut: close enough for a count of leaves.
double RmatSkew(double pa, const RmatCounts& counts, uint64_t n, uint64_t e) {
  const RmatProbabilities q(pa);
  const double a = q.a / 65536.0, b = q.b / 65536.0, d = q.d / 65536.0;
  const int s = counts.scale, s1 = s + 1;
  const double edges = static_cast<double>(e);
  auto mass = [&](int n00, int nx, int n11) {
    return std::pow(a, n00) * std::pow(b, nx) * std::pow(d, n11);
  };
  double z = 0;
  for (int n00 = 0; n00 < s1; ++n00)
    for (int n11 = 0; n00 + n11 < s; ++n11)
      z += counts.pairs[n00 * s1 + n11] * mass(n00, s - n00 - n11, n11);
  double pairs = 0;
  for (int n00 = 0; n00 < s1; ++n00)
    for (int n11 = 0; n00 + n11 < s; ++n11) {
      double y = edges * 2 * mass(n00, s - n00 - n11, n11) / z;
      pairs += counts.pairs[n00 * s1 + n11] * -std::expm1(-y) / 2;
    }
  double d0 = 0, marginal_sum = 0;
  for (int k = 1; k < s1; ++k)
    d0 += counts.popcount[k] * -std::expm1(-edges * 2 * mass(s - k, k, 0) / z);
  for (int k = 0; k < s1; ++k)
    marginal_sum += counts.popcount[k] * std::pow(a + b, s - k) * std::pow(b + d, k);
  double isolated = 0;
  for (int k = 0; k < s1; ++k) {
    double t = 2 * std::pow(a + b, s - k) * std::pow(b + d, k) / marginal_sum;
    isolated += counts.popcount[k] * std::exp(-edges * t);
  }
  const double mean = 2 * pairs / (static_cast<double>(n) - isolated);
  return d0 / mean;
}

// ---- Calibration ----------------------------------------------------------------------

struct Calibration {
  double parameter = 0, skew = 0;  // skew: expected at `parameter`
  double reachable = 0;            // the most the model reaches
};

// The expected skew grows with the parameter, peaks, and falls again once the hubs only
// have each other as neighbours: a scan finds the peak, bisection the target below it.
Calibration Calibrate(const std::function<double(double)>& skew_of, double lo, double hi,
                      double target) {
  constexpr int kGrid = 32;
  std::vector<double> x(kGrid + 1), y(kGrid + 1);
  int peak = 0;
  for (int i = 0; i <= kGrid; ++i) {
    x[i] = lo + (hi - lo) * i / kGrid;
    y[i] = skew_of(x[i]);
    if (y[i] > y[peak]) peak = i;
  }
  Calibration c;
  c.reachable = y[peak];
  if (target > y[peak]) return c;
  int i = 0;
  while (y[i] < target) ++i;
  if (i == 0) return {x[0], y[0], y[peak]};
  double a = x[i - 1], b = x[i];
  for (int iter = 0; iter < 32; ++iter) {
    double mid = (a + b) / 2;
    (skew_of(mid) < target ? a : b) = mid;
  }
  return {b, skew_of(b), y[peak]};
}

// The skew chance alone gives: with every node alike, degrees are about Poisson(2E/N), and
// the largest of N of them is about the Poisson's (1 - 1/N) quantile; the mean is over the
// nodes with an edge. No model gives less, so smaller targets are refused.
double ChanceSkew(uint64_t n, uint64_t e) {
  const double mu = 2.0 * static_cast<double>(e) / static_cast<double>(n);
  const double nodes = static_cast<double>(n);
  double k = std::ceil(mu) + 1;
  if (mu > 1e6) {
    k = mu + std::sqrt(2 * mu * std::log(nodes));  // the Gaussian tail
  } else {
    // P(X >= k) <= pmf(k) / (1 - mu / (k + 1)) for k > mu.
    auto tail = [mu](double k) {
      return std::exp(-mu + k * std::log(mu) - std::lgamma(k + 1)) / (1 - mu / (k + 1));
    };
    while (nodes * tail(k) > 1) ++k;
  }
  return k / (mu / -std::expm1(-mu));
}

constexpr double kRmatLowestA = (0.5 - 0.19 / 0.43) / (1 - 0.19 / 0.43);  // a + b = 1/2

// LSD radix sort, 16 bits a pass; a pass whose digit is the same everywhere is skipped.
void RadixSort(std::vector<uint64_t>& v) {
  std::vector<uint64_t> tmp(v.size());
  std::vector<size_t> count(1 << 16);
  for (int shift = 0; shift < 64 && !v.empty(); shift += 16) {
    std::fill(count.begin(), count.end(), 0);
    for (uint64_t x : v) ++count[(x >> shift) & 0xffff];
    if (count[(v[0] >> shift) & 0xffff] == v.size()) continue;
    size_t sum = 0;
    for (size_t& c : count) sum += std::exchange(c, sum);
    for (uint64_t x : v) tmp[count[(x >> shift) & 0xffff]++] = x;
    v.swap(tmp);
  }
}

char* PutLine(char* p, uint64_t u, uint64_t v) {
  p = std::to_chars(p, p + 20, u).ptr;
  *p++ = '\t';
  p = std::to_chars(p, p + 20, v).ptr;
  *p++ = '\n';
  return p;
}

}  // namespace

Result<GraphModel> ParseGraphModel(std::string_view name) {
  if (name == "chung-lu") return GraphModel::kChungLu;
  if (name == "rmat") return GraphModel::kRmat;
  return Status::InvalidArgument("unknown graph model '" + std::string(name) +
                                 "' (expected chung-lu or rmat)");
}

std::string_view GraphModelName(GraphModel model) {
  return model == GraphModel::kRmat ? "rmat" : "chung-lu";
}

struct GraphGenerator::Model {
  GraphOptions options;
  Calibration calibration;
  Permutation permutation;
  // chung-lu
  std::unique_ptr<Bins> bins;
  std::unique_ptr<AliasTable> alias;
  // rmat
  int scale = 0;
  uint32_t t00 = 0, t01 = 0, t10 = 0;  // cumulative quadrant thresholds in 1/65536

  uint64_t ChungLuNode(SplitMix& rng) const {
    uint32_t k = alias->Sample(rng.Next());
    uint64_t size = bins->size[k];
    return bins->lo[k] + (size > 1 ? Scale(rng.Next(), size) : 0);
  }
  void RmatEdge(SplitMix& rng, uint64_t* u, uint64_t* v) const {
    uint64_t x = 0, y = 0, bits = 0;
    for (int level = 0; level < scale; ++level) {
      if (level % 4 == 0) bits = rng.Next();
      const uint32_t r = bits & 0xffff;
      bits >>= 16;
      // Quadrants (0,0) (0,1) (1,0) (1,1) below t00, t01, t10, 65536; no branches.
      const uint64_t ge00 = r >= t00, ge01 = r >= t01, ge10 = r >= t10;
      x = x << 1 | ge01;
      y = y << 1 | (ge00 ^ ge01 ^ ge10);
    }
    *u = x;
    *v = y;
  }
};

Result<GraphGenerator> GraphGenerator::Create(const GraphOptions& o) {
  if (o.nodes < 2 || o.nodes > (1ull << 32))
    return Status::InvalidArgument("--nodes must be in [2, 2^32]");
  if (o.edges < 1) return Status::InvalidArgument("--edges must be at least 1");
  double target = o.skew.value_or(kDefaultSkew);
  if (o.skew && !(target > 1)) return Status::InvalidArgument("--skew must be more than 1");
  if (double chance = ChanceSkew(o.nodes, o.edges); o.skew && target < chance) {
    char msg[200];
    std::snprintf(msg, sizeof msg,
                  "--skew %g is below chance: %llu nodes and %llu edges with no skew at all give "
                  "about %.2f",
                  target, static_cast<unsigned long long>(o.nodes),
                  static_cast<unsigned long long>(o.edges), chance);
    return Status::InvalidArgument(msg);
  }
  std::function<double(double)> skew_of;
  double lo, hi;
  std::shared_ptr<RmatCounts> counts;
  if (o.model == GraphModel::kChungLu) {
    skew_of = [&o](double alpha) { return ChungLuSkew(alpha, o.nodes, o.edges); };
    lo = 0;
    hi = 2;
  } else {
    counts = std::make_shared<RmatCounts>(o.nodes);
    skew_of = [&o, counts](double a) { return RmatSkew(a, *counts, o.nodes, o.edges); };
    lo = kRmatLowestA;
    hi = 0.95;
  }
  Calibration c = Calibrate(skew_of, lo, hi, target);
  if (!o.skew && target > c.reachable) {
    target = c.reachable;
    c = Calibrate(skew_of, lo, hi, target);
  }
  if (target > c.reachable) {
    char msg[200];
    std::snprintf(msg, sizeof msg,
                  "--skew %g is out of reach: %s with %llu nodes and %llu edges reaches %.2f",
                  target, std::string(GraphModelName(o.model)).c_str(),
                  static_cast<unsigned long long>(o.nodes),
                  static_cast<unsigned long long>(o.edges), c.reachable);
    return Status::InvalidArgument(msg);
  }
  GraphOptions options = o;
  options.skew = target;
  auto m =
      std::make_unique<Model>(Model{options, c, Permutation(o.nodes, o.seed), nullptr, nullptr});
  if (o.model == GraphModel::kChungLu) {
    m->bins = std::make_unique<Bins>(c.parameter, o.nodes);
    std::vector<double> weights(m->bins->p.size());
    for (size_t k = 0; k < weights.size(); ++k) weights[k] = m->bins->p[k] * m->bins->size[k];
    m->alias = std::make_unique<AliasTable>(weights);
  } else {
    RmatProbabilities q(c.parameter);
    m->scale = counts->scale;
    m->t00 = q.a;
    m->t01 = q.a + q.b;
    m->t10 = q.a + 2 * q.b;
  }
  return GraphGenerator(std::move(m));
}

GraphGenerator::GraphGenerator(std::unique_ptr<const Model> model) : model_(std::move(model)) {}
GraphGenerator::GraphGenerator(GraphGenerator&&) noexcept = default;
GraphGenerator& GraphGenerator::operator=(GraphGenerator&&) noexcept = default;
GraphGenerator::~GraphGenerator() = default;

double GraphGenerator::parameter() const { return model_->calibration.parameter; }
double GraphGenerator::expected_skew() const { return model_->calibration.skew; }

uint64_t GraphGenerator::chunks() const {
  return (model_->options.edges + kChunkEdges - 1) / kChunkEdges;
}

std::string GraphGenerator::Header() const {
  const GraphOptions& o = model_->options;
  char buf[400];
  std::snprintf(buf, sizeof buf,
                "# Directed graph generated by mrlocal gen graph: model %s (%s %.4f), "
                "skew %g, seed %llu\n# Nodes: %llu Edges: %llu\n# FromNodeId\tToNodeId\n",
                std::string(GraphModelName(o.model)).c_str(),
                o.model == GraphModel::kRmat ? "a" : "alpha", parameter(), *o.skew,
                static_cast<unsigned long long>(o.seed), static_cast<unsigned long long>(o.nodes),
                static_cast<unsigned long long>(o.edges));
  return buf;
}

void GraphGenerator::Chunk(uint64_t index, std::string* out) const {
  const Model& m = *model_;
  const uint64_t n = m.options.nodes;
  const uint64_t begin = index * kChunkEdges;
  const uint64_t count = std::min(kChunkEdges, m.options.edges - begin);
  SplitMix rng{Mix64(Mix64(m.options.seed) + index)};
  out->resize(count * 22);  // two ids of at most 10 digits, a tab and a newline
  char* p = out->data();
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t u, v;
    if (m.options.model == GraphModel::kChungLu) {
      do {
        u = m.ChungLuNode(rng);
        v = m.ChungLuNode(rng);
      } while (u == v);
    } else {
      do m.RmatEdge(rng, &u, &v);
      while (u >= n || v >= n || u == v);
    }
    p = PutLine(p, m.permutation(u), m.permutation(v));
  }
  out->resize(p - out->data());
}

Result<std::string> GenerateGraph(const GraphOptions& options) {
  auto gen = GraphGenerator::Create(options);
  if (!gen.ok()) return gen.status();
  const uint64_t chunks = gen->chunks();
  std::vector<std::string> parts(chunks);
  unsigned threads = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(), chunks));
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (uint64_t c = t; c < chunks; c += threads) gen->Chunk(c, &parts[c]);
    });
  for (auto& th : pool) th.join();
  std::string text = gen->Header();
  size_t total = text.size();
  for (auto& part : parts) total += part.size();
  text.reserve(total);
  for (auto& part : parts) text += part;
  return text;
}

Result<DegreeStats> MeasureDistinctDegree(std::string_view text) {
  DegreeStats s;
  std::vector<uint64_t> arcs;  // u << 32 | v and v << 32 | u for each edge, u != v
  uint64_t line_no = 0;
  for (size_t pos = 0; pos < text.size();) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    uint64_t u = 0, v = 0;
    const char* p = line.data();
    const char* const e = line.data() + line.size();
    auto r1 = std::from_chars(p, e, u);
    p = r1.ptr;
    while (p < e && (*p == '\t' || *p == ' ')) ++p;
    auto r2 = std::from_chars(p, e, v);
    p = r2.ptr;
    while (p < e && (*p == ' ' || *p == '\t' || *p == '\r')) ++p;
    if (r1.ec != std::errc() || r2.ec != std::errc() || r2.ptr == r1.ptr || p != e ||
        u >= (1ull << 32) || v >= (1ull << 32))
      return Status::Corruption("edge list line " + std::to_string(line_no) +
                                ": expected two node ids below 2^32");
    ++s.edges;
    if (u == v) continue;
    arcs.push_back(u << 32 | v);
    arcs.push_back(v << 32 | u);
  }
  RadixSort(arcs);
  arcs.erase(std::unique(arcs.begin(), arcs.end()), arcs.end());
  s.distinct_pairs = arcs.size() / 2;
  for (size_t i = 0; i < arcs.size();) {
    size_t j = i;
    while (j < arcs.size() && arcs[j] >> 32 == arcs[i] >> 32) ++j;
    if (j - i > s.max_degree) {
      s.max_degree = j - i;
      s.max_node = arcs[i] >> 32;
    }
    ++s.nodes;
    i = j;
  }
  if (s.nodes) s.mean_degree = 2.0 * static_cast<double>(s.distinct_pairs) / s.nodes;
  return s;
}

namespace {

constexpr uint64_t kHeaderBytes = 160;  // GraphGenerator::Header, about

// Mean decimal digits of the ids 0..n-1.
double MeanDigits(uint64_t n) {
  if (n == 0) return 1;
  double total = 0;
  uint64_t lo = 0, hi = 10;  // ids of `d` digits: [lo, hi)
  for (int d = 1; lo<n; ++d, lo = hi, hi = hi> UINT64_MAX / 10 ? UINT64_MAX : hi * 10)
    total += static_cast<double>(d) * static_cast<double>(std::min(hi, n) - lo);
  return total / static_cast<double>(n);
}

double LineBytes(uint64_t nodes) { return 2 * MeanDigits(nodes) + 2; }  // ids, tab, newline

}  // namespace

uint64_t GraphBytes(uint64_t nodes, uint64_t edges) {
  return kHeaderBytes +
         static_cast<uint64_t>(std::llround(LineBytes(nodes) * static_cast<double>(edges)));
}

GraphSize GraphForBytes(uint64_t bytes, uint64_t nodes) {
  const double body = static_cast<double>(bytes > kHeaderBytes ? bytes - kHeaderBytes : 0);
  auto edges_over = [&](uint64_t n) {
    return std::max<uint64_t>(1, std::llround(body / LineBytes(n)));
  };
  if (nodes > 0) return {nodes, edges_over(nodes)};
  GraphSize g{2, std::max<uint64_t>(1, static_cast<uint64_t>(body) / 14)};
  for (int i = 0; i < 8; ++i) {  // the mean id length depends on nodes, nodes on edges
    g.nodes = std::clamp<uint64_t>(g.edges / 10, 2, kMaxGraphNodes);
    g.edges = edges_over(g.nodes);
  }
  return g;
}

}  // namespace mrlocal
