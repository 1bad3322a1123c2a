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

// a^-1 mod m, for a prime to m (extended Euclid).
uint64_t InverseMod(uint64_t a, uint64_t m) {
  __int128 t = 0, next_t = 1, r = m, next_r = a % m;
  while (next_r != 0) {
    const __int128 q = r / next_r;
    t = std::exchange(next_t, t - q * next_t);
    r = std::exchange(next_r, r - q * next_r);
  }
  return static_cast<uint64_t>(t < 0 ? t + m : t);
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
  unsigned __int128 v = static_cast<unsigned __int128>(index) * (kMul % count);
  v = (v + Offset(shape, count)) % count;
  std::string w(shape.len, ' ');
  for (int i = shape.len - 1; i >= 0; --i) {
    const bool vowel = IsVowelAt(shape, i);
    const unsigned radix = vowel ? 5 : 20;
    w[i] = (vowel ? kVowels : kConsonants)[static_cast<unsigned>(v % radix)];
    v /= radix;
  }
  return w;
}

std::optional<PseudoWordIndex> IndexOfPseudoWord(std::string_view word) {
  if (word.empty() || word.size() > 16) return std::nullopt;
  const WordShape shape{static_cast<int>(word.size()), std::strchr(kVowels, word[0]) != nullptr};
  unsigned __int128 v = 0;
  for (int i = 0; i < shape.len; ++i) {
    const bool vowel = IsVowelAt(shape, i);
    const char* const letters = vowel ? kVowels : kConsonants;
    const char* const at = word[i] ? std::strchr(letters, word[i]) : nullptr;
    if (!at) return std::nullopt;
    v = v * (vowel ? 5 : 20) + static_cast<unsigned>(at - letters);
  }
  const uint64_t count = PseudoWordCount(shape);
  const unsigned __int128 unshifted = (v + count - Offset(shape, count)) % count;
  return PseudoWordIndex{
      shape, static_cast<uint64_t>(unshifted * InverseMod(kMul % count, count) % count)};
}

}  // namespace mrlocal
