#include "datasets/pseudo_words.h"

#include <cstring>
#include <utility>

namespace mrlocal {
namespace {

constexpr char kConsonants[] = "bcdfghjklmnprstvwxyz";  // 20
constexpr char kVowels[] = "aeiou";                     // 5

bool IsVowelAt(WordShape shape, int i) { return (i % 2 == 0) == shape.vowel_first; }

// Word `index` is the digits of an affine map of the indices, (index * kMul + offset) mod
// the shape's count: the multiplier is prime to 2 and 5, hence to the count, so the map is
// a bijection and can be inverted.
constexpr uint64_t kMul = 0x2545F4914F6CDD1Dull;
static_assert(kMul % 2 == 1 && kMul % 5 != 0);

uint64_t Offset(WordShape shape, uint64_t count) {
  return (0x9E3779B97F4A7C15ull * static_cast<uint64_t>(shape.len)) % count;
}

// a^-1 mod m, for a prime to m (extended Euclid). Counts are below 2^54, so 64-bit
// arithmetic is exact.
uint64_t InverseMod(uint64_t a, uint64_t m) {
  int64_t t = 0, next_t = 1, r = static_cast<int64_t>(m), next_r = static_cast<int64_t>(a % m);
  while (next_r != 0) {
    const int64_t q = r / next_r;
    t = std::exchange(next_t, t - q * next_t);
    r = std::exchange(next_r, r - q * next_r);
  }
  return static_cast<uint64_t>(t < 0 ? t + static_cast<int64_t>(m) : t);
}

// a * b mod m for a, b < m < 2^63, by doubling: exact in 64 bits.
uint64_t MulMod(uint64_t a, uint64_t b, uint64_t m) {
  uint64_t result = 0;
  for (; b != 0; b >>= 1) {
    if (b & 1) result = result >= m - a ? result - (m - a) : result + a;
    a = a >= m - a ? a - (m - a) : a + a;
  }
  return result;
}

}  // namespace

uint64_t PseudoWordCount(WordShape shape) {
  const int vowels = shape.vowel_first ? (shape.len + 1) / 2 : shape.len / 2;
  uint64_t c = 1;
  for (int i = 0; i < vowels; ++i) c *= 5;
  for (int i = vowels; i < shape.len; ++i) c *= 20;
  return c;
}

std::string PseudoWord(WordShape shape, uint64_t index) {
  const uint64_t count = PseudoWordCount(shape);
  uint64_t v = (MulMod(index % count, kMul % count, count) + Offset(shape, count)) % count;
  std::string w(shape.len, ' ');
  for (int i = shape.len - 1; i >= 0; --i) {
    // Constant divisors: GCC 12's -fsanitize=integer-divide-by-zero miscompiled this loop
    // with a variable radix (the ASan+UBSan build's words came out wrong).
    if (IsVowelAt(shape, i)) {
      w[i] = kVowels[v % 5];
      v /= 5;
    } else {
      w[i] = kConsonants[v % 20];
      v /= 20;
    }
  }
  return w;
}

std::optional<PseudoWordIndex> IndexOfPseudoWord(std::string_view word) {
  if (word.empty() || word.size() > 16) return std::nullopt;
  const WordShape shape{static_cast<int>(word.size()), std::strchr(kVowels, word[0]) != nullptr};
  uint64_t v = 0;  // < the shape's count, below 2^54
  for (int i = 0; i < shape.len; ++i) {
    const bool vowel = IsVowelAt(shape, i);
    const char* const letters = vowel ? kVowels : kConsonants;
    const char* const at = word[i] ? std::strchr(letters, word[i]) : nullptr;
    if (!at) return std::nullopt;
    v = v * (vowel ? 5 : 20) + static_cast<unsigned>(at - letters);
  }
  const uint64_t count = PseudoWordCount(shape);
  const uint64_t unshifted = (v + count - Offset(shape, count)) % count;
  return PseudoWordIndex{shape, MulMod(unshifted, InverseMod(kMul % count, count), count)};
}

}  // namespace mrlocal
