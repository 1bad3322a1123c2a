#include "datasets/text_generator.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <string_view>
#include <thread>
#include <vector>

#include "datasets/alias_table.h"

namespace mrlocal {
namespace {

struct SplitMix {
  uint64_t s;
  uint64_t Next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};

// ---- Words ----------------------------------------------------------------------------

// Lengths (capped at 9) and first letter (1 = vowel) of the 256 most frequent words of the
// 16 Gutenberg books in ../shared/datasets/text/gutenberg ([a-z]+ tokens, lower-cased,
// single-consonant fragments such as the "s" of "'s" left out).
constexpr std::string_view kHeadLength =
    "3322122142333433332323322324244424425423225243544232332542534443"
    "4544444334443424664573254343435443333467444544445423574356343446"
    "4573394263654434436353543273455555675446552544754547553454453565"
    "4554656669544534847584453543846265654455343475639454466443555477";
constexpr std::string_view kHeadVowelFirst =
    "0101101101000000001010011100000000000001010001000111001000000100"
    "0100100000000001000100110001001000100100100000000010000000101100"
    "1000100001000000000000010000001000110000011000000000000000100000"
    "0000000001100000100000000000000010000100000000001000010000100010";
constexpr uint32_t kHead = 256;
static_assert(kHeadLength.size() == kHead && kHeadVowelFirst.size() == kHead);

// Past the head, the same books' distinct words of ranks [256, 512), [512, 1024), ...,
// [16384, 32768) (the last band serves every later rank): how many of 256 have 1, 2, ...,
// 16 letters, and how many of 256 start with a vowel.
constexpr int kBands = 7;
constexpr uint8_t kBandLength[kBands][16] = {
    {3, 4, 26, 74, 45, 45, 31, 19, 3, 2, 1, 2, 0, 1, 0, 0},
    {0, 2, 20, 48, 56, 48, 40, 20, 14, 6, 1, 1, 0, 0, 0, 0},
    {1, 2, 11, 34, 47, 54, 43, 30, 18, 9, 4, 2, 2, 0, 0, 0},
    {1, 2, 9, 27, 42, 43, 45, 38, 24, 13, 6, 3, 2, 1, 0, 0},
    {0, 2, 8, 21, 32, 41, 44, 41, 28, 19, 11, 6, 3, 1, 0, 0},
    {0, 1, 6, 16, 26, 40, 43, 38, 34, 23, 15, 8, 4, 2, 1, 0},
    {0, 1, 5, 13, 23, 33, 39, 40, 35, 27, 17, 11, 6, 3, 1, 1},
};
constexpr uint8_t kBandVowelFirst[kBands] = {46, 31, 44, 46, 44, 51, 56};

constexpr char kConsonants[] = "bcdfghjklmnprstvwxyz";  // 20
constexpr char kVowels[] = "aeiou";                     // 5

// Words of `len` letters that alternate consonants and vowels, starting with a vowel or not.
uint64_t Capacity(int len, bool vowel_first) {
  int vowels = vowel_first ? (len + 1) / 2 : len / 2;
  uint64_t c = 1;
  for (int i = 0; i < vowels; ++i) c *= 5;
  for (int i = vowels; i < len; ++i) c *= 20;
  return c;
}

struct Shape {
  int len;
  bool vowel_first;
  uint64_t index;  // distinct among the ranks of one shape
};

// Head rank r (0-based) is the (index)-th rank of its shape among the head's ranks.
const std::array<Shape, kHead>& HeadShapes() {
  static const std::array<Shape, kHead> shapes = [] {
    std::array<Shape, kHead> s{};
    uint64_t seen[10][2] = {};
    for (uint32_t r = 0; r < kHead; ++r) {
      int len = kHeadLength[r] - '0';
      bool v = kHeadVowelFirst[r] == '1';
      s[r] = {len, v, seen[len][v]++};
    }
    return s;
  }();
  return shapes;
}

// Tail rank r keeps index r (>= kHead, so never an index of the head) and draws its length
// from its band, lengthened until its shape has more than r words.
Shape TailShape(uint32_t r) {
  SplitMix h{r * 0xD1B54A32D192ED03ull};
  uint64_t x = h.Next();
  int band = std::min(static_cast<int>(std::bit_width(r)) - 9, kBands - 1);
  uint32_t total = 0;
  for (uint8_t c : kBandLength[band]) total += c;
  const uint32_t pick = static_cast<uint32_t>(((x & 0xffff) * total) >> 16);  // [0, total)
  int len = 1;
  for (uint32_t acc = kBandLength[band][0]; acc <= pick; acc += kBandLength[band][len++]) {
  }
  bool vowel_first = ((x >> 16) & 0xff) < kBandVowelFirst[band];
  while (Capacity(len, vowel_first) <= r) ++len;
  return {len, vowel_first, r};
}

// ---- Zipf sampling --------------------------------------------------------------------

// Walker's alias method: O(1) samples from the Zipf distribution. A column keeps what a
// draw needs in one 16-byte entry: its threshold and the words of both outcomes.
struct Column {
  uint32_t threshold;  // 24-bit: keep the column's own word when the coin is below it
  uint32_t pad;
  uint32_t word[2];  // offsets into the vocabulary pool of the column's and its alias's word
};

std::vector<Column> BuildAlias(uint32_t n, double s, const std::vector<uint32_t>& word) {
  std::vector<double> weights(n);
  for (uint32_t k = 0; k < n; ++k) weights[k] = 1.0 / std::pow(k + 1.0, s);
  const AliasTable table(weights);
  std::vector<Column> columns(n);
  for (uint32_t k = 0; k < n; ++k) {
    columns[k].threshold = table.threshold[k];
    columns[k].word[0] = word[k];
    columns[k].word[1] = word[table.alias[k]];
  }
  return columns;
}

}  // namespace

std::string WordOfRank(uint32_t rank) {
  const uint32_t r = rank - 1;
  const Shape shape = r < kHead ? HeadShapes()[r] : TailShape(r);
  // A bijection of [0, capacity) (an affine map with a multiplier prime to 2 and 5) spreads
  // the indices over the whole alphabet; the word's letters are the result's digits. A word
  // shows its length and its first letter's kind, hence its shape, and within a shape
  // distinct indices give distinct words: distinct ranks give distinct words.
  const uint64_t cap = Capacity(shape.len, shape.vowel_first);
  constexpr uint64_t kMul = 0x2545F4914F6CDD1Dull;
  static_assert(kMul % 2 == 1 && kMul % 5 != 0);
  unsigned __int128 v = static_cast<unsigned __int128>(shape.index) * (kMul % cap);
  v = (v + 0x9E3779B97F4A7C15ull * static_cast<uint64_t>(shape.len)) % cap;
  std::string w(shape.len, ' ');
  for (int i = shape.len - 1; i >= 0; --i) {
    bool vowel = (i % 2 == 0) == shape.vowel_first;
    unsigned radix = vowel ? 5 : 20;
    w[i] = vowel ? kVowels[static_cast<unsigned>(v % radix)]
                 : kConsonants[static_cast<unsigned>(v % radix)];
    v /= radix;
  }
  return w;
}

// The vocabulary, flat: word k is pool[word[k] + 1, ...) with its length in
// pool[word[k]], followed by at least 16 bytes of padding so that a word of up to 16
// letters is copied with one fixed move.
struct TextGenerator::Tables {
  std::string pool;
  std::vector<Column> columns;
};

TextGenerator::TextGenerator(const TextOptions& o) : options_(o) {
  auto t = std::make_unique<Tables>();
  const uint32_t n = std::max<uint32_t>(o.vocabulary, 1);
  std::vector<uint32_t> word(n);
  for (uint32_t k = 0; k < n; ++k) {
    std::string w = WordOfRank(k + 1);  // at most 16 letters
    word[k] = static_cast<uint32_t>(t->pool.size());
    t->pool += static_cast<char>(w.size());
    t->pool += w;
  }
  t->pool.append(16, '\0');
  t->columns = BuildAlias(n, o.exponent, word);
  tables_ = std::move(t);
}

TextGenerator::~TextGenerator() = default;

uint64_t TextGenerator::chunks() const { return (options_.bytes + kChunkBytes - 1) / kChunkBytes; }

uint64_t TextGenerator::chunk_bytes(uint64_t index) const {
  return std::min(kChunkBytes, options_.bytes - index * kChunkBytes);
}

// Decorations exercise a tokenizer: capitals, ALL CAPS, quotes, numbers and punctuation
// leave the lower-cased word as it is; "'s" (1 word in 64) makes a distinct word "w's".
void TextGenerator::Chunk(uint64_t index, std::string* out) const {
  const uint64_t size = chunk_bytes(index);
  const Tables& t = *tables_;
  const Column* const columns = t.columns.data();
  const uint64_t ncolumns = t.columns.size();
  const char* const pool = t.pool.data();
  SplitMix rng{options_.seed * 0x2545F4914F6CDD1Dull + index};
  out->resize(size + 4096);  // slack: a line's last word may run past `size`
  char* p = out->data();
  char* const stop = p + size;
  const uint64_t per_line = 2 * std::max<uint64_t>(options_.words_per_line, 1);
  auto put = [&p](std::string_view s) {
    std::memcpy(p, s.data(), s.size());
    p += s.size();
  };
  while (p < stop) {
    uint32_t n = 1 + static_cast<uint32_t>(((rng.Next() >> 32) * per_line) >> 32);
    for (uint32_t i = 0; i < n; ++i) {
      // One draw: the high 32 bits pick a column (multiply-shift, no division), the next
      // 24 bits are the alias coin, the low 8 bits the decoration dice.
      uint64_t r = rng.Next();
      const Column& c = columns[((r >> 32) * ncolumns) >> 32];
      const char* w = pool + c.word[((r >> 8) & 0xffffff) >= c.threshold];
      const size_t len = static_cast<uint8_t>(*w++);
      uint32_t d = static_cast<uint32_t>(r & 0xff);
      if (d == 1) put("1999 ");
      if (d == 2) *p++ = '"';
      std::memcpy(p, w, 16);
      if (len > 16) std::memcpy(p, w, len);
      if (d == 3) {
        for (size_t k = 0; k < len; ++k) p[k] = static_cast<char>(p[k] - 'a' + 'A');
      } else if (i == 0) {
        p[0] = static_cast<char>(p[0] - 'a' + 'A');
      }
      p += len;
      if (d == 2) *p++ = '"';
      if (d >= 252) put("'s");
      if (i + 1 < n) {
        if (d >= 16 && d < 32)
          put(", ");
        else if (d == 4)
          put(" -- ");
        else
          *p++ = ' ';
      }
      if (p >= stop) break;  // the slack holds at most one more word
    }
    put(rng.Next() % 8 == 0 ? "!\n" : ".\n");
  }
  out->resize(size);
  if (size) (*out)[size - 1] = '\n';
}

TextOptions DefaultCorpusOptions() {
  TextOptions o;
  o.bytes = 512ull << 20;
  o.vocabulary = 100000;
  o.exponent = 1.0;
  o.seed = 2026;
  return o;
}

std::string GenerateText(const TextOptions& o) {
  TextGenerator gen(o);
  std::string text(o.bytes, '\0');
  const uint64_t chunks = gen.chunks();
  unsigned threads = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(), chunks));
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      std::string buf;
      for (uint64_t c = t; c < chunks; c += threads) {
        gen.Chunk(c, &buf);
        std::memcpy(text.data() + c * TextGenerator::kChunkBytes, buf.data(), buf.size());
      }
    });
  }
  for (auto& th : pool) th.join();
  return text;
}

}  // namespace mrlocal
