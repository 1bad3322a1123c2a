// Pi (apps/pi.h, `mrlocal pi`): the same estimate as Hadoop's `pi NMAPS NSAMPLES`, bit for
// bit. Published Hadoop outputs, small cases worked out by hand, the exact 20-decimal
// HALF_UP formatting, the fast Halton walk against Hadoop's algorithm and against exact radical
// inverses, any cluster shape, and one-line errors for bad arguments.
#include "apps/pi.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "engine/partition_hash.h"
#include "engine/typed_job.h"
#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

using u128 = unsigned __int128;
using testing::RunMrlocal;
using testing::ScratchDir;

static_assert(TypedApp<apps::Pi>);

// Collects what Pi's Map emits.
struct CountsOut {
  uint64_t inside = 0, outside = 0;
  void Emit(uint8_t key, uint64_t n) { (key == apps::Pi::kInside ? inside : outside) += n; }
};

// `pi maps samples` in-process: every map task's Map, the reduce's sum, the formatting.
std::string Estimate(uint32_t maps, uint64_t samples) {
  const apps::Pi app{samples};
  CountsOut out;
  for (uint32_t i = 0; i < maps; ++i) EXPECT_TRUE(app.Map(i, out, [](double) { return true; }));
  EXPECT_EQ(out.inside + out.outside, uint64_t{maps} * samples);
  return apps::FormatPiEstimate(out.inside, u128{maps} * samples);
}

// The "Estimated value of Pi is ..." line of a run of the binary, or "" when absent.
std::string EstimateLine(const std::string& out) {
  const std::string prefix = "Estimated value of Pi is ";
  size_t at = out.find(prefix);
  if (at == std::string::npos) return "";
  return out.substr(at, out.find('\n', at) - at);
}

// ---------------------------------------------------------------------------------------
// The binary.

TEST(Pi, TenMapsOfHundredPrintsHadoopsLines) {
  auto r = RunMrlocal({"pi", "10", "100", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  // Hadoop's lines, in Hadoop's order, then ours and the closing report.
  EXPECT_EQ(r.out.rfind("Number of Maps  = 10\nSamples per Map = 100\n", 0), 0u) << r.out;
  const size_t finished = r.out.find("\nJob Finished in ");
  const size_t estimate = r.out.find("\nEstimated value of Pi is 3.14800000000000000000\n");
  ASSERT_NE(finished, std::string::npos) << r.out;
  ASSERT_NE(estimate, std::string::npos) << r.out;
  EXPECT_LT(finished, estimate);
  EXPECT_EQ(r.out.find("Estimated value of Pi"), r.out.rfind("Estimated value of Pi"));
  EXPECT_NE(r.out.find("\nSamples per second = "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("job pi: SUCCEEDED"), std::string::npos) << r.out;
}

TEST(Pi, OutputDirectoryHoldsTheTwoCounts) {
  ScratchDir dir;
  auto r = RunMrlocal({"pi", "10", "100", "-q", "-o", (dir / "out").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto lines = testing::ReadJobOutput(dir / "out");
  EXPECT_EQ(lines, (std::map<std::string, std::string>{{"inside", "787"}, {"outside", "213"}}));
}

// The same estimate whatever the slots: each map task walks its own range.
TEST(Pi, SameEstimateOnEveryClusterShape) {
  const std::string expected = "Estimated value of Pi is " + Estimate(6, 200000);
  for (const char* cluster : {"1x(1m,1r,1.0)", "2x(2m,1r,1.0)", "1x(1m,1r,1.0)+1x(1m,1r,0.5)"}) {
    auto r = RunMrlocal({"pi", "6", "200000", "--cluster", cluster, "-q"});
    ASSERT_EQ(r.exit_code, 0) << cluster << ": " << r.err;
    EXPECT_EQ(EstimateLine(r.out), expected) << cluster;
  }
}

// Bad arguments: exit 2, one line on stderr saying "error", nothing on stdout.
TEST(Pi, BadArgumentsAreOneLineErrors) {
  const std::vector<std::vector<std::string>> cases = {
      {"pi", "0", "10"},
      {"pi", "10", "-5"},
      {"pi", "x", "10"},
      {"pi", "10", "x"},
      {"pi", "10", "0"},
      {"pi", "3000000000", "10"},  // NMAPS is a Java int
      {"pi", "1.5", "10"},
      {"pi", "10", "9223372036854775808"},  // NSAMPLES is a Java long
      {"pi", "1000000", "10000000000000"},  // 10^19 >= 2^63
      {"pi", "2", "4611686018427387904"},   // exactly 2^63
      {"pi", "10"},                         // NSAMPLES missing
      {"pi", "10", "100", "--deadline", "-3s"},
      {"pi", "10", "100", "--cluster", "2x(1m"},
  };
  for (const auto& args : cases) {
    auto r = RunMrlocal(args);
    std::string what = args[1] + (args.size() > 2 ? " " + args[2] : "");
    EXPECT_EQ(r.exit_code, 2) << what;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << what << ": " << r.err;
    EXPECT_NE(r.err.find("error"), std::string::npos) << what << ": " << r.err;
    EXPECT_EQ(r.out, "") << what;
  }
}

TEST(Pi, ParseArgsAsHadoopParsesIntAndLong) {
  apps::PiArgs a;
  EXPECT_FALSE(apps::ParsePiArgs("+10", "+100", a));  // Integer.parseInt accepts a '+'
  EXPECT_EQ(a.maps, 10u);
  EXPECT_EQ(a.samples, 100u);
  EXPECT_FALSE(apps::ParsePiArgs("2147483647", "1", a));
  EXPECT_EQ(a.maps, 2147483647u);
  EXPECT_FALSE(apps::ParsePiArgs("1", "9223372036854775807", a));  // index 2^63-1 is the last
  EXPECT_FALSE(apps::ParsePiArgs("3", "3074457345618258602", a));  // 3x = 2^63 - 2
  EXPECT_TRUE(apps::ParsePiArgs("3", "3074457345618258603", a));   // 3x = 2^63 + 1
  EXPECT_TRUE(apps::ParsePiArgs("2147483648", "1", a));
  EXPECT_TRUE(apps::ParsePiArgs("-1", "1", a));
  EXPECT_TRUE(apps::ParsePiArgs(" 1", "1", a));
  EXPECT_TRUE(apps::ParsePiArgs("1", "10x", a));
  EXPECT_TRUE(apps::ParsePiArgs("1", "", a));
  EXPECT_TRUE(apps::ParsePiArgs("1", "+", a));
  EXPECT_EQ(a.maps, 3u);  // unchanged by the failures
}

// ---------------------------------------------------------------------------------------
// Published outputs of Hadoop's `pi` (hadoop-mapreduce-examples / hadoop-examples.jar, the
// full 20-decimal line together with both arguments), from public GitHub repositories.
// A note on the result: the map tasks together walk indexes 1..NMAPS*NSAMPLES, so the
// estimate depends only on the product (`pi 10 1000` = `pi 100 100`).
TEST(Pi, PublishedHadoopResults) {
  struct Case {
    uint32_t maps;
    uint64_t samples;
    const char* estimate;
  };
  const Case cases[] = {
      {10, 100, "3.14800000000000000000"},   // ricardo-aires/SEBC challenges/labs/5_pi.md (CDH)
      {2, 1000, "3.14400000000000000000"},   // arshaqvinkos/SEBC challenges/labs/5_pi.md (CDH)
      {10, 20, "3.12000000000000000000"},    // jnmaomao/SEBC challenges/labs/5_pi.md
      {10, 10, "3.20000000000000000000"},    // fx185000/SEBC challenges/labs/5_pi.md
      {100, 100, "3.14080000000000000000"},  // hackty/SEBC challenges/labs/5_pi.md
      // mail2thota/ansible_provision ansible/ambari-hdp/roles/ambari_config/tasks/yarn_test.sh
      // (HDP 2.6.2; the script's expected line); also an AWS EC2 tutorial's Hadoop 3.3.6 run.
      {16, 1000, "3.14250000000000000000"},
      // A Hadoop 2.6.3 install guide and a Giraph setup README (pi 10 1000).
      {10, 1000, "3.14080000000000000000"},
      // The "Narcana" cluster check procedure of statsbiblioteket.dk (HDP, pi 32 100000).
      {32, 100000, "3.14158625000000000000"},
  };
  for (const Case& c : cases)
    EXPECT_EQ(Estimate(c.maps, c.samples), c.estimate) << "pi " << c.maps << " " << c.samples;
}

// ---------------------------------------------------------------------------------------
// Small cases by hand. Point n is (radical inverse of n in base 2, in base 3):
//   n  x      y      (x-.5)^2 + (y-.5)^2
//   1  1/2    1/3    0      + 0.0278 = 0.0278  in
//   2  1/4    2/3    0.0625 + 0.0278 = 0.0903  in
//   3  3/4    1/9    0.0625 + 0.1512 = 0.2137  in
//   4  1/8    4/9    0.1406 + 0.0031 = 0.1437  in
//   5  5/8    7/9    0.0156 + 0.0772 = 0.0928  in
//   6  3/8    2/9    0.0156 + 0.0772 = 0.0928  in
//   7  7/8    5/9    0.1406 + 0.0031 = 0.1437  in
//   8  1/16   8/9    0.1914 + 0.1512 = 0.3426  OUT
//   9  9/16   1/27   0.0039 + 0.2143 = 0.2182  in   (9 = 1001b = 100 in base 3)
//  10  5/16   10/27  0.0352 + 0.0168 = 0.0520  in   (1010b, 101 in base 3)
//  11  13/16  19/27  0.0977 + 0.0415 = 0.1392  in   (1011b, 102)
//  12  3/16   4/27   0.0977 + 0.1238 = 0.2215  in   (1100b, 110)
// (all far from 0.25, so rounding cannot matter). Map i covers i*NSAMPLES+1 ..
// (i+1)*NSAMPLES, so the maps together cover 1..NMAPS*NSAMPLES:
//   7 points: 7/7 in -> 4;   8 points: 7/8 -> 3.5;   9: 8/9 -> 3.5555..6;
//   10: 9/10 -> 3.6;   12: 11/12 -> 3.6666..7.
TEST(Pi, SmallCasesByHand) {
  EXPECT_EQ(Estimate(1, 1), "4.00000000000000000000");
  EXPECT_EQ(Estimate(7, 1), "4.00000000000000000000");
  EXPECT_EQ(Estimate(1, 8), "3.50000000000000000000");
  EXPECT_EQ(Estimate(2, 4), "3.50000000000000000000");
  EXPECT_EQ(Estimate(8, 1), "3.50000000000000000000");
  EXPECT_EQ(Estimate(1, 9), "3.55555555555555555556");
  EXPECT_EQ(Estimate(3, 3), "3.55555555555555555556");
  EXPECT_EQ(Estimate(2, 5), "3.60000000000000000000");
  EXPECT_EQ(Estimate(10, 1), "3.60000000000000000000");
  EXPECT_EQ(Estimate(1, 12), "3.66666666666666666667");
  EXPECT_EQ(Estimate(3, 4), "3.66666666666666666667");
  EXPECT_EQ(Estimate(6, 2), "3.66666666666666666667");
}

// ---------------------------------------------------------------------------------------
// FormatPiEstimate: Java's BigDecimal 4.000..(scale 20) * inside / total, HALF_UP, toString.
// Expected strings checked against Python's decimal (ROUND_HALF_UP; its str() follows the
// same to-scientific-string rule as BigDecimal.toString).
TEST(Pi, FormatRoundsHalfUpAtTheTwentiethDecimal) {
  const u128 e20 = u128{10'000'000'000} * 10'000'000'000;  // 10^20
  EXPECT_EQ(apps::FormatPiEstimate(787, 1000), "3.14800000000000000000");
  EXPECT_EQ(apps::FormatPiEstimate(2, 3), "2.66666666666666666667");
  EXPECT_EQ(apps::FormatPiEstimate(1, 3), "1.33333333333333333333");
  EXPECT_EQ(apps::FormatPiEstimate(1, 7), "0.57142857142857142857");
  EXPECT_EQ(apps::FormatPiEstimate(5, 7), "2.85714285714285714286");
  // A carry through trailing nines: ...578999|6 -> ...579000.
  EXPECT_EQ(apps::FormatPiEstimate(2369, 3019), "3.13878767803908579000");
  // Totals of 10^12 and beyond 2^64.
  EXPECT_EQ(apps::FormatPiEstimate(785398163397, 1'000'000'000'000), "3.14159265358800000000");
  EXPECT_EQ(apps::FormatPiEstimate(UINT64_MAX, u128{UINT64_MAX} + 14), "3.99999999999999999696");
  // Exact ties (4 * inside * 10^20 / total = N + 1/2) round up, not to even; just below, down.
  EXPECT_EQ(apps::FormatPiEstimate(628318530717958649, 8 * e20), "0.00314159265358979325");
  EXPECT_EQ(apps::FormatPiEstimate(628318530717958647, 8 * e20), "0.00314159265358979324");
  EXPECT_EQ(apps::FormatPiEstimate(628318530717958649, 8 * e20 + 1), "0.00314159265358979324");
  // BigDecimal.toString: plain down to 1E-6, then E-notation (unreachable for real runs).
  EXPECT_EQ(apps::FormatPiEstimate(1, 4'000'000), "0.00000100000000000000");
  EXPECT_EQ(apps::FormatPiEstimate(1, 4'000'001), "9.9999975000006E-7");
  EXPECT_EQ(apps::FormatPiEstimate(1, 10'000'000'000'000'000'000u), "4.0E-19");
  EXPECT_EQ(apps::FormatPiEstimate(0, 1), "0E-20");
  EXPECT_EQ(apps::FormatPiEstimate(3, u128{1} << 100), "0E-20");
}

// ---------------------------------------------------------------------------------------
// The walk.

// The exact radical inverse of n in `base`, as a long double (one rounding).
long double RadicalInverse(uint64_t n, uint64_t base) {
  uint64_t num = 0, den = 1;
  for (; n > 0; n /= base) {
    num = num * base + n % base;
    den *= base;
  }
  return static_cast<long double>(num) / static_cast<long double>(den);
}

// Both walks (Hadoop's algorithm ported line for line, and the fast one) against the exact
// radical inverses of indexes 1..2^20. Base 2 is exact. Base 3 is not, in Hadoop either:
// its q's are rounded (3 * fl(1/3) = 1 - 2^-54) and so is every x += q, with a bias, so the
// walk drifts steadily, by about 5.4e-17 per point (1.6e-15 after 32 points, 5.7e-11 after
// 2^20): the bound is 1e-15 plus 1e-16 per point walked. A wrong digit or carry would be off
// by at least 3^-13 (~6e-7) here.
TEST(Pi, WalksFollowTheRadicalInverses) {
  constexpr uint64_t kPoints = uint64_t{1} << 20;
  auto bound = [](uint64_t steps) { return 1e-15L + 1e-16L * static_cast<long double>(steps); };
  apps::HaltonSequence hadoop(0);
  apps::FastHalton fast(0);
  uint64_t n = 0, bad = 0;
  fast.Walk(kPoints, [&](double x, double y) {
    ++n;
    const double* p = hadoop.NextPoint();
    const long double ex = RadicalInverse(n, 2), ey = RadicalInverse(n, 3);
    if (x != ex || p[0] != ex) ++bad;
    if (std::fabs(y - ey) > bound(n) || std::fabs(p[1] - ey) > bound(n)) ++bad;
    if (bad == 1 && (x != ex || std::fabs(y - ey) > bound(n)))
      ADD_FAILURE() << "index " << n << ": (" << x << ", " << y << ")";
  });
  EXPECT_EQ(bad, 0u);
  EXPECT_EQ(fast.index(), kPoints);
}

// The constructor at an arbitrary start (Hadoop's digit expansion) agrees too.
TEST(Pi, StartAnywhereFollowsTheRadicalInverses) {
  for (uint64_t start : {uint64_t{1}, uint64_t{1'000'000}, uint64_t{123'456'789'012}}) {
    apps::FastHalton fast(start);
    uint64_t n = start, steps = 0;
    fast.Walk(1000, [&](double x, double y) {
      ++n, ++steps;
      EXPECT_EQ(x, RadicalInverse(n, 2)) << n;
      EXPECT_LE(std::fabs(y - RadicalInverse(n, 3)), 1e-15L + 1e-16L * steps) << n;
    });
  }
}

// The fast walk is bit-identical to Hadoop's algorithm from any start: below 2^52 (base 2 from
// the bit-reversed index), across it and above (the literal walk), near 3^k and at the top of
// the int64 range, in chunks of any size (it is ONE walk; a fresh sequence per chunk differs).
TEST(Pi, FastWalkIsBitIdenticalToHadoops) {
  const uint64_t k3_30 = 205891132094649;  // 3^30
  const uint64_t starts[] = {0,
                             1,
                             99,
                             k3_30 - 2000,
                             (uint64_t{1} << 52) - 5000,
                             (uint64_t{1} << 52) - 1,
                             uint64_t{1} << 52,
                             (uint64_t{1} << 53) + 12345,
                             uint64_t{3} << 61,
                             uint64_t{INT64_MAX} - 10000};
  for (uint64_t start : starts) {
    apps::HaltonSequence hadoop(static_cast<int64_t>(start));
    apps::FastHalton fast(start);
    uint64_t mismatches = 0;
    auto compare = [&](double x, double y) {
      const double* p = hadoop.NextPoint();
      mismatches += std::memcmp(&x, &p[0], sizeof x) != 0 || std::memcmp(&y, &p[1], sizeof y) != 0;
    };
    for (uint64_t chunk : {1, 7, 1000, 2992}) fast.Walk(chunk, compare);  // 4000 points
    EXPECT_EQ(mismatches, 0u) << "start " << start;
    EXPECT_EQ(fast.index(), start + 4000);
  }
}

// A fresh sequence per chunk would NOT be Hadoop's: the base-3 rounding drift depends on
// where the walk started. (This is why a map task walks one sequence from its offset.)
TEST(Pi, RestartingTheSequenceChangesTheBits) {
  apps::HaltonSequence walked(0);
  for (int i = 0; i < 1000; ++i) walked.NextPoint();
  apps::HaltonSequence fresh(1000);
  const double* a = walked.NextPoint();
  const double* b = fresh.NextPoint();
  EXPECT_EQ(a[0], b[0]);
  EXPECT_NE(a[1], b[1]);
}

// ---------------------------------------------------------------------------------------
// The map task.

TEST(Pi, MapChecksInEveryMegaSampleAndStopsWhenPreempted) {
  const uint64_t samples = apps::Pi::kChunk * 2 + 5;
  const apps::Pi app{samples};
  CountsOut out;
  std::vector<double> progress;
  EXPECT_TRUE(app.Map(1, out, [&](double p) {
    progress.push_back(p);
    return true;
  }));
  ASSERT_EQ(progress.size(), 3u);
  EXPECT_DOUBLE_EQ(progress[0], static_cast<double>(apps::Pi::kChunk) / samples);
  EXPECT_EQ(progress[2], 1.0);
  EXPECT_EQ(out.inside + out.outside, samples);
  // The same counts as Hadoop's walk of the task's range, in one go.
  apps::PiCounts one;
  apps::FastHalton walk(samples);
  apps::CountPoints(walk, samples, one);
  EXPECT_EQ(out.inside, one.inside);

  CountsOut none;
  int calls = 0;
  EXPECT_FALSE(app.Map(0, none, [&](double) { return ++calls < 2; }));
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(none.inside + none.outside, 0u);  // nothing emitted by a preempted task
}

// Through the engine's typed runtime: map tasks by index, one reduce, "key\tvalue" lines.
TEST(Pi, TypedRuntimeWritesInsideAndOutside) {
  JobRuntimeOptions o;
  o.hashes = MakePartitionHashes(1, 4, 1);
  o.top_n = 2;
  TypedJobRuntime<apps::Pi> rt(o, apps::Pi{100});
  testing::StopAt never(INT_MAX);
  std::vector<std::unique_ptr<MapOutput>> outs;
  std::vector<const MapOutput*> maps;
  for (uint32_t t = 0; t < 10; ++t) {
    MapInput in;
    in.task_index = t;
    auto out = rt.RunMap(in, never);
    ASSERT_TRUE(out.ok()) << out.status().message();
    EXPECT_EQ((*out)->records(), 2u);
    maps.push_back(out->get());
    outs.push_back(std::move(out).value());
  }
  ReducePlan plan{o.hashes[0], {0, 0, 0, 0}};
  testing::StringSink sink;
  auto res = rt.RunReduce(maps, plan, 0, &sink, never);
  ASSERT_TRUE(res.ok()) << res.status().message();
  EXPECT_EQ(sink.text, "inside\t787\noutside\t213\n");
  ASSERT_EQ(res->top.size(), 2u);
  EXPECT_EQ(res->top[0].key, "inside");
  EXPECT_EQ(res->top[0].value, "787");
  EXPECT_EQ(res->top[1].key, "outside");
}

}  // namespace
}  // namespace mrlocal
