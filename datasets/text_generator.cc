#include "datasets/text_generator.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include "datasets/alias_table.h"
#include "datasets/pseudo_words.h"

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

// datasets/english_words.txt, compiled in: '#' lines, then "word count" lines.
constexpr std::string_view kWordListFile =
#include "datasets/english_words.inc"
    ;

const std::vector<std::string_view>& ListedWords() {
  static const std::vector<std::string_view> words = [] {
    std::vector<std::string_view> w;
    for (std::string_view rest = kWordListFile; !rest.empty();) {
      const std::string_view line = rest.substr(0, rest.find('\n'));
      rest.remove_prefix(std::min(rest.size(), line.size() + 1));
      if (!line.empty() && line[0] != '#') w.push_back(line.substr(0, line.find(' ')));
    }
    return w;
  }();
  return words;
}

// Past the list, the lengths of the pseudo-words follow those of the Gutenberg books'
// distinct words of ranks [4096, 8192), [8192, 16384) and [16384, 32768) (the last band
// serves every later rank): how many of 256 have 1, 2, ..., 16 letters, and how many of
// 256 start with a vowel.
constexpr int kBands = 3;
constexpr uint8_t kBandLength[kBands][16] = {
    {0, 2, 8, 21, 32, 41, 44, 41, 28, 19, 11, 6, 3, 1, 0, 0},
    {0, 1, 6, 16, 26, 40, 43, 38, 34, 23, 15, 8, 4, 2, 1, 0},
    {0, 1, 5, 13, 23, 33, 39, 40, 35, 27, 17, 11, 6, 3, 1, 1},
};
constexpr uint8_t kBandVowelFirst[kBands] = {44, 51, 56};

// Rank r (0-based, past the list) takes a pseudo-word of index r, of a length drawn from
// its band and lengthened until its shape has more than r words.
WordShape TailShape(uint32_t r) {
  SplitMix h{r * 0xD1B54A32D192ED03ull};
  uint64_t x = h.Next();
  int band = std::clamp(static_cast<int>(std::bit_width(r)) - 13, 0, kBands - 1);
  uint32_t total = 0;
  for (uint8_t c : kBandLength[band]) total += c;
  const uint32_t pick = static_cast<uint32_t>(((x & 0xffff) * total) >> 16);  // [0, total)
  WordShape shape{1, ((x >> 16) & 0xff) < kBandVowelFirst[band]};
  for (uint32_t acc = kBandLength[band][0]; acc <= pick; acc += kBandLength[band][shape.len++]) {
  }
  while (PseudoWordCount(shape) <= r) ++shape.len;
  return shape;
}

// The ranks past the list whose pseudo-word is a listed word, and the index each takes
// instead. Such a rank is the index of a listed word of its own shape. No rank past the
// list has an index below the list's size, so those indices are free but for the listed
// words' own: a shape's k-th such rank takes its k-th free index. There are enough: a
// shape has no more such ranks than listed words with indices past the list's size.
const std::unordered_map<uint32_t, uint64_t>& ReplacedIndices() {
  static const std::unordered_map<uint32_t, uint64_t> replaced = [] {
    const uint64_t listed = ListedWords().size();
    auto key = [](WordShape s) { return 2 * s.len + s.vowel_first; };
    std::map<int, std::set<uint64_t>> taken;        // the listed words' indices, by shape
    std::map<int, std::vector<uint32_t>> clashing;  // the ranks to replace, by shape
    for (std::string_view w : ListedWords()) {
      const auto p = IndexOfPseudoWord(w);
      if (!p) continue;
      taken[key(p->shape)].insert(p->index);
      if (p->index >= listed && p->index < UINT32_MAX &&
          TailShape(static_cast<uint32_t>(p->index)) == p->shape)
        clashing[key(p->shape)].push_back(static_cast<uint32_t>(p->index));
    }
    std::unordered_map<uint32_t, uint64_t> out;
    for (auto& [shape, ranks] : clashing) {
      std::sort(ranks.begin(), ranks.end());
      uint64_t free = 0;
      for (uint32_t r : ranks) {
        while (taken[shape].count(free)) ++free;
        out[r] = free++;
      }
    }
    return out;
  }();
  return replaced;
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

uint32_t ListedWordCount() { return static_cast<uint32_t>(ListedWords().size()); }

std::string WordOfRank(uint32_t rank) {
  const uint32_t r = rank - 1;
  const auto& listed = ListedWords();
  if (r < listed.size()) return std::string(listed[r]);
  const auto& replaced = ReplacedIndices();
  const auto it = replaced.find(r);
  return PseudoWord(TailShape(r), it == replaced.end() ? r : it->second);
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
// leave the lower-cased word as it is; "'s" (1 word in 64) makes the word "w's".
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
        for (size_t k = 0; k < len; ++k)
          if (p[k] != '\'') p[k] = static_cast<char>(p[k] - 'a' + 'A');
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
