// Pi: Hadoop's quasi-Monte Carlo Pi estimator (hadoop-mapreduce-examples `pi NMAPS NSAMPLES`,
// org.apache.hadoop.examples.QuasiMonteCarlo), with the same arguments and, bit for bit, the
// same result.
//
// Map task i walks ONE Halton sequence (bases 2 and 3) from index i * NSAMPLES and counts
// which of its next NSAMPLES points (x, y) of the unit square fall inside the inscribed
// circle: (x - 0.5)^2 + (y - 0.5)^2 <= 0.25. It emits two records, key 0 ("inside") and
// key 1 ("outside"), with the task's counts; one reduce sums them, and the estimate is
// 4 * inside / (NMAPS * NSAMPLES), rounded half-up to exactly 20 decimals (FormatPiEstimate).
//
// Bit-exactness. Hadoop computes the points with Java doubles (IEEE binary64, every operation
// rounded, nothing fused). The walk below performs the same floating-point operations in the
// same order, so every point, hence every count, is identical:
//   - the header refuses -ffast-math / -fassociative-math (which would let the compiler
//     reorder sums) and excess precision (FLT_EVAL_METHOD != 0, e.g. x87);
//   - the only multiply-adds, x*x + y*y and the constructor's x += d*q, go through
//     `pi_internal::Rounded`, an empty asm that pins the product as a rounded double in its
//     register: the compiler cannot contract it into an FMA whatever -ffp-contract or
//     -march says (it costs no instruction);
//   - the base-2 coordinate is not walked in floating point when it provably does not need
//     to be: while every index stays below 2^52, each of Hadoop's additions and subtractions
//     on it is exact (all values are multiples of 2^-52 below 2), so Hadoop's x equals the
//     radical inverse exactly, and we compute that from the bit-reversed index. Above 2^52
//     the literal walk is used. The base-3 coordinate is always walked literally: its q's
//     are rounded, and so are its sums.
// `HaltonSequence` is a line-for-line port of Hadoop's class, kept as the reference that
// tests compare the fast walk against.
#pragma once

#include <algorithm>
#include <cfloat>
#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#if defined(__FAST_MATH__) || defined(__ASSOCIATIVE_MATH__)
#error "apps/pi.h needs strict IEEE arithmetic: do not build with -ffast-math/-fassociative-math"
#endif
#if FLT_EVAL_METHOD != 0
#error "apps/pi.h needs doubles evaluated in double precision (FLT_EVAL_METHOD == 0)"
#endif

namespace mrlocal::apps {

namespace pi_internal {

// v, rounded to a double and opaque to the optimizer: an expression that uses the result
// cannot be contracted with the operation that produced v (no FMA), nor reassociated.
[[gnu::always_inline]] inline double Rounded(double v) {
#if defined(__x86_64__) || defined(__i386__)
  asm("" : "+x"(v));
#elif defined(__aarch64__)
  asm("" : "+w"(v));
#else
  asm("" : "+m"(v));
#endif
  return v;
}

// Hadoop's test for one point: inside the circle, boundary included.
[[gnu::always_inline]] inline bool Inside(double px, double py) {
  const double x = px - 0.5;
  const double y = py - 0.5;
  return !(Rounded(x * x) + Rounded(y * y) > 0.25);
}

}  // namespace pi_internal

// Hadoop's QuasiMonteCarlo.HaltonSequence, line for line (the reference implementation).
class HaltonSequence {
 public:
  static constexpr int kP[2] = {2, 3};    // bases
  static constexpr int kK[2] = {63, 40};  // digits

  explicit HaltonSequence(int64_t startindex) : index_(startindex) {
    for (int i = 0; i < 2; ++i) {
      int64_t k = index_;
      x_[i] = 0;
      for (int j = 0; j < kK[i]; ++j) {
        q_[i][j] = (j == 0 ? 1.0 : q_[i][j - 1]) / kP[i];
        d_[i][j] = static_cast<int>(k % kP[i]);
        k = (k - d_[i][j]) / kP[i];
        x_[i] += pi_internal::Rounded(d_[i][j] * q_[i][j]);
      }
    }
  }

  // The next point (x, y), as Hadoop's nextPoint() returns it.
  const double* NextPoint() {
    ++index_;
    for (int i = 0; i < 2; ++i) {
      for (int j = 0; j < kK[i]; ++j) {
        d_[i][j]++;
        x_[i] += q_[i][j];
        if (d_[i][j] < kP[i]) break;
        d_[i][j] = 0;
        x_[i] -= (j == 0 ? 1.0 : q_[i][j - 1]);
      }
    }
    return x_;
  }

 private:
  int64_t index_;
  double x_[2];
  double q_[2][63];
  int d_[2][63];
};

// The same sequence, walked fast (see the header comment): call Walk(n, visit) any number of
// times; visit(x, y) gets the next n points, bit-identical to HaltonSequence::NextPoint().
class FastHalton {
 public:
  // Indexes below this keep every base-2 step exact.
  static constexpr uint64_t kExactBinaryLimit = uint64_t{1} << 52;

  // REQUIRES: start + (the number of points walked) < 2^63, as Hadoop's int64 index needs.
  explicit FastHalton(uint64_t start) : index_(start), rev_(BitReverse(start)) {
    // Hadoop's constructor, operation for operation.
    for (int i = 0; i < 2; ++i) {
      const int p = HaltonSequence::kP[i];
      uint64_t k = start;
      double x = 0;
      double q = 1.0;
      for (int j = 0; j < HaltonSequence::kK[i]; ++j) {
        const double prev = q;
        q = q / p;
        const int d = static_cast<int>(k % static_cast<uint64_t>(p));
        k = (k - static_cast<uint64_t>(d)) / static_cast<uint64_t>(p);
        x += pi_internal::Rounded(d * q);
        if (i == 0) {
          q0_[j] = q;
          prev0_[j] = prev;
        } else {
          q1_[j] = q;
          prev1_[j] = prev;
          d1_[j] = static_cast<uint8_t>(d);
        }
      }
      (i == 0 ? x0_ : x1_) = x;
    }
  }

  template <class Visit>
  void Walk(uint64_t n, Visit&& visit) {
    if (index_ + n < kExactBinaryLimit)
      WalkImpl<true>(n, visit);
    else
      WalkImpl<false>(n, visit);
  }

  uint64_t index() const { return index_; }

 private:
  static uint64_t BitReverse(uint64_t v) {
    v = ((v >> 1) & 0x5555555555555555ull) | ((v & 0x5555555555555555ull) << 1);
    v = ((v >> 2) & 0x3333333333333333ull) | ((v & 0x3333333333333333ull) << 2);
    v = ((v >> 4) & 0x0f0f0f0f0f0f0f0full) | ((v & 0x0f0f0f0f0f0f0f0full) << 4);
    return __builtin_bswap64(v);
  }

  template <bool kExactBinary, class Visit>
  void WalkImpl(uint64_t n, Visit& visit) {
    uint64_t index = index_;
    uint64_t rev = rev_;
    double x0 = x0_;
    double x1 = x1_;
    int d0 = d1_[0];
    for (uint64_t i = 0; i < n; ++i) {
      // Base 2: the digits are the index's bits; the carry runs through its t trailing ones.
      const int t = __builtin_ctzll(~index);
      ++index;
      if constexpr (kExactBinary) {
        // x0 = bitreverse(index) / 2^64, exactly; the index < 2^52 leaves the low 12 bits of
        // the reversed value zero, so (rev >> 11) < 2^53 converts exactly.
        rev ^= ~uint64_t{0} << (63 - t);
        x0 = static_cast<double>(static_cast<int64_t>(rev >> 11)) * 0x1p-53;
      } else {
        for (int j = 0; j < t; ++j) {
          x0 += q0_[j];
          x0 -= prev0_[j];
        }
        x0 += q0_[t];
      }
      // Base 3: Hadoop's digit loop, with digit 0 in a register.
      x1 += q1_[0];
      if (++d0 == 3) {
        d0 = 0;
        x1 -= prev1_[0];
        for (int j = 1; j < HaltonSequence::kK[1]; ++j) {
          x1 += q1_[j];
          if (++d1_[j] < 3) break;
          d1_[j] = 0;
          x1 -= prev1_[j];
        }
      }
      visit(x0, x1);
    }
    index_ = index;
    rev_ = kExactBinary ? rev : BitReverse(index);
    x0_ = x0;
    x1_ = x1;
    d1_[0] = static_cast<uint8_t>(d0);
  }

  uint64_t index_;
  uint64_t rev_;  // BitReverse(index_)
  double x0_ = 0, x1_ = 0;
  double q0_[63], prev0_[63];  // prev[j]: what a carry out of digit j subtracts
  double q1_[40], prev1_[40];
  uint8_t d1_[40];
};

// Counts which of the walk's next n points are inside / outside the circle.
struct PiCounts {
  uint64_t inside = 0;
  uint64_t outside = 0;
};
inline void CountPoints(FastHalton& walk, uint64_t n, PiCounts& counts) {
  uint64_t inside = 0;
  walk.Walk(n, [&inside](double x, double y) { inside += pi_internal::Inside(x, y); });
  counts.inside += inside;
  counts.outside += n - inside;
}

// The estimate exactly as Hadoop prints it: BigDecimal.valueOf(4).setScale(20)
// .multiply(BigDecimal.valueOf(inside)).divide(total, RoundingMode.HALF_UP).toString():
// 4 * inside / total rounded half-up to 20 decimals ("3.14800000000000000000"); Java's
// toString switches to E-notation below 1e-6 ("4.3E-19", "0E-20"), and so does this.
// Exact integer long division. REQUIRES: 0 < total < 2^124.
inline std::string FormatPiEstimate(uint64_t inside, unsigned __int128 total) {
  using u128 = unsigned __int128;
  constexpr int kScale = 20;
  const u128 numerator = u128{inside} * 4;
  u128 whole = numerator / total;
  u128 rem = numerator % total;
  char frac[kScale];
  for (int i = 0; i < kScale; ++i) {
    rem *= 10;  // rem < total < 2^124: no overflow
    frac[i] = static_cast<char>('0' + static_cast<int>(rem / total));
    rem %= total;
  }
  if (rem >= total - rem) {  // the discarded part is >= 1/2 ulp: HALF_UP rounds up
    int i = kScale - 1;
    for (; i >= 0 && frac[i] == '9'; --i) frac[i] = '0';
    if (i >= 0)
      ++frac[i];
    else
      ++whole;
  }
  // The unscaled value's digits: whole, then the 20 decimals, without leading zeros.
  std::string digits;
  for (u128 w = whole; w > 0; w /= 10) digits.insert(digits.begin(), char('0' + int(w % 10)));
  digits.append(frac, kScale);
  digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size() - 1));
  const int adjusted = -kScale + static_cast<int>(digits.size()) - 1;
  if (adjusted >= -6) {  // plain notation
    if (digits.size() <= static_cast<size_t>(kScale))
      digits.insert(0, std::string(kScale - digits.size(), '0'));
    const size_t point = digits.size() - kScale;
    std::string s = point == 0 ? std::string("0") : digits.substr(0, point);
    s.push_back('.');
    s.append(digits, point, std::string::npos);
    return s;
  }
  std::string s(1, digits[0]);
  if (digits.size() > 1) {
    s.push_back('.');
    s.append(digits, 1, std::string::npos);
  }
  s.push_back('E');
  s.append(std::to_string(adjusted));
  return s;
}

// Parsed and validated `pi NMAPS NSAMPLES`.
struct PiArgs {
  uint32_t maps = 0;
  uint64_t samples = 0;
};

// Hadoop parses NMAPS as an int and NSAMPLES as a long: decimal digits with an optional '+'.
// NMAPS must be in [1, 2^31-1], NSAMPLES >= 1, and the last index of the last map,
// NMAPS * NSAMPLES, must stay below 2^63 (Hadoop's index is a long). On error: one line
// saying what is wrong, and `args` is unchanged.
inline std::optional<std::string> ParsePiArgs(std::string_view maps, std::string_view samples,
                                              PiArgs& args) {
  auto parse = [](std::string_view s, uint64_t max, uint64_t& v) {
    if (!s.empty() && s[0] == '+') s.remove_prefix(1);
    if (s.empty() || s[0] < '0' || s[0] > '9') return false;
    auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    return r.ec == std::errc() && r.ptr == s.data() + s.size() && v <= max;
  };
  uint64_t m = 0, n = 0;
  if (!parse(maps, INT32_MAX, m) || m < 1)
    return "NMAPS must be an integer from 1 to 2147483647 (got '" + std::string(maps) + "')";
  if (!parse(samples, INT64_MAX, n) || n < 1)
    return "NSAMPLES must be an integer from 1 to 9223372036854775807 (got '" +
           std::string(samples) + "')";
  if (static_cast<unsigned __int128>(m) * n > static_cast<unsigned __int128>(INT64_MAX))
    return "NMAPS * NSAMPLES must be below 2^63 (got " + std::string(maps) + " * " +
           std::string(samples) + ")";
  args.maps = static_cast<uint32_t>(m);
  args.samples = n;
  return std::nullopt;
}

struct Pi {
  static constexpr std::string_view kName = "pi";
  static constexpr bool kTextInput = false;  // Map is driven by the task index
  // 0 = inside, 1 = outside: the output's numeric key order is also its text order.
  using Key = uint8_t;
  using Value = uint64_t;  // points

  static constexpr Key kInside = 0;
  static constexpr Key kOutside = 1;

  uint64_t samples = 0;  // per map; REQUIRES (maps) * samples < 2^63 (ParsePiArgs)

  // Points between checkpoints: a few milliseconds of work.
  static constexpr uint64_t kChunk = uint64_t{1} << 20;

  // Map task i: the points of indexes i*samples + 1 .. (i+1)*samples, one walk.
  template <class Out, class Checkpoint>
  bool Map(uint32_t task_index, Out& out, Checkpoint&& checkpoint) const {
    FastHalton walk(uint64_t{task_index} * samples);
    PiCounts counts;
    for (uint64_t done = 0; done < samples;) {
      const uint64_t n = std::min(kChunk, samples - done);
      CountPoints(walk, n, counts);
      done += n;
      if (!checkpoint(static_cast<double>(done) / static_cast<double>(samples))) return false;
    }
    out.Emit(kInside, counts.inside);
    out.Emit(kOutside, counts.outside);
    return true;
  }

  static void Combine(Value& into, uint64_t n) { into += n; }
  static void Merge(Value& into, const Value& other) { into += other; }
  static void Reduce(Key, Value&) {}
  static uint64_t SizeUnits(Key, const Value&) { return sizeof(Key) + sizeof(Value); }
  // The output's lines are "inside\tN" and "outside\tN".
  static void FormatKey(std::string& out, Key key) {
    out.append(key == kInside ? "inside" : "outside");
  }
  static void FormatValue(std::string& out, const Value& count) {
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, count);
    out.append(buf, r.ptr);
  }
  // Any order will do: top-N with N >= 2 lists both keys (the command asks for 2).
  static double Score(Key, const Value& count) { return static_cast<double>(count); }
};

}  // namespace mrlocal::apps
