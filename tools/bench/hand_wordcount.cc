// The reference WordCount for issue 23's throughput figure: what a performance engineer
// writes in an afternoon to count words on a multicore machine, with none of mrlocal's
// machinery (no tasks, no scheduler, no block store, no shuffle).
//
//   hand_wordcount FILE THREADS [OUT]
//
// It maps FILE, cuts it into THREADS ranges at word boundaries, and counts each range on its
// own thread into its own open-addressing hash table (XXH3 of the lower-cased word, linear
// probing, keys in one arena per thread). It then merges the tables in parallel, thread t
// taking the words whose hash falls in its share, sorts each share by word, formats
// "word\tcount\n" lines and writes them to OUT (or drops them: the work is the same) in
// the order of the shares. The words are mrlocal's (apps/wordcount.h): an ASCII letter
// followed by letters and apostrophes, lower-cased; so `sort` of its output equals `sort`
// of mrlocal's part files. The tokenizer finds runs of word bytes 64 bytes at a time with
// SSE2 bit masks and bit scans (a byte loop with a branch per byte ran at half the speed:
// the word ends are unpredictable branches).
// Prints "BYTES bytes, WORDS words, KEYS distinct, SECONDS s" on stderr.
#define XXH_INLINE_ALL
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <emmintrin.h>
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

// Word bytes: letters and the apostrophe (the tail of a range, and where ranges are cut).
constexpr std::array<bool, 256> kWordByte = [] {
  std::array<bool, 256> t{};
  for (int c = 'a'; c <= 'z'; ++c) t[c] = t[c - 'a' + 'A'] = true;
  t['\''] = true;
  return t;
}();

class Table {
 public:
  struct Entry {
    uint64_t hash = 0;
    uint32_t offset = 0;
    uint32_t length = 0;  // 0: empty
    uint64_t count = 0;
  };

  Table() : slots_(1 << 16), mask_((1 << 16) - 1) {}

  void Add(std::string_view word, uint64_t h, uint64_t n) {
    for (size_t i = h & mask_;; i = (i + 1) & mask_) {
      Entry& e = slots_[i];
      if (e.length == 0) {
        e = {h, static_cast<uint32_t>(arena_.size()), static_cast<uint32_t>(word.size()), n};
        arena_.append(word);
        if (++size_ * 2 > slots_.size()) Grow();
        return;
      }
      if (e.hash == h && e.length == word.size() && Same(arena_.data() + e.offset, word)) {
        e.count += n;
        return;
      }
    }
  }
  // memcmp inline, 8 bytes at a time: words are short, and a call per word was a quarter
  // of the time.
  static bool Same(const char* a, std::string_view b) {
    size_t i = 0;
    for (; i + 8 <= b.size(); i += 8) {
      uint64_t x, y;
      std::memcpy(&x, a + i, 8);
      std::memcpy(&y, b.data() + i, 8);
      if (x != y) return false;
    }
    for (; i < b.size(); ++i)
      if (a[i] != b[i]) return false;
    return true;
  }
  std::string_view Key(const Entry& e) const { return {arena_.data() + e.offset, e.length}; }
  const std::vector<Entry>& slots() const { return slots_; }
  size_t size() const { return size_; }

 private:
  void Grow() {
    std::vector<Entry> old(slots_.size() * 2);
    old.swap(slots_);
    mask_ = slots_.size() - 1;
    for (const Entry& e : old) {
      if (e.length == 0) continue;
      size_t i = e.hash & mask_;
      while (slots_[i].length != 0) i = (i + 1) & mask_;
      slots_[i] = e;
    }
  }
  std::vector<Entry> slots_;
  size_t mask_;
  size_t size_ = 0;
  std::string arena_;
};

// Bit i set when p[i] is a word byte (a letter or an apostrophe), for 64 bytes: SSE2
// compares, so that finding words costs bit scans instead of a branch per byte.
uint64_t WordBytes(const char* p) {
  const __m128i k20 = _mm_set1_epi8(0x20), ka = _mm_set1_epi8('a'), k25 = _mm_set1_epi8(25),
                kq = _mm_set1_epi8('\'');
  uint64_t mask = 0;
  for (int k = 0; k < 4; ++k) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
    const __m128i x = _mm_sub_epi8(_mm_or_si128(v, k20), ka);  // letters to 0..25
    const __m128i word = _mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(x, k25), x),
                                      _mm_cmpeq_epi8(v, kq));
    mask |= static_cast<uint64_t>(static_cast<uint32_t>(_mm_movemask_epi8(word))) << (16 * k);
  }
  return mask;
}

struct Counter {
  Table& table;
  uint64_t words = 0;
  char buf[256];
  std::string long_word;

  // A run of word bytes [s, e): a word once its leading apostrophes are dropped.
  void Run(const char* s, const char* e) {
    while (s < e && *s == '\'') ++s;
    if (s == e) return;
    const size_t n = static_cast<size_t>(e - s);
    char* w = buf;
    if (n > sizeof buf) {
      long_word.resize(n);
      w = long_word.data();
    }
    for (size_t i = 0; i < n; ++i) w[i] = static_cast<char>(s[i] | 0x20);
    table.Add({w, n}, XXH3_64bits(w, n), 1);
    ++words;
  }
};

// Counts the words of [p, end) into `table`; returns how many.
uint64_t CountRange(const char* p, const char* end, Table& table) {
  Counter c{table, 0, {}, {}};
  const char* run = nullptr;  // the open run of word bytes
  for (; end - p >= 64; p += 64) {
    const uint64_t word = WordBytes(p);
    const uint64_t before = (word << 1) | (run ? 1 : 0);
    uint64_t edges = word ^ before;  // run starts and run ends, alternating
    while (edges) {
      const char* at = p + __builtin_ctzll(edges);
      edges &= edges - 1;
      if (run) {
        c.Run(run, at);
        run = nullptr;
      } else {
        run = at;
      }
    }
  }
  for (; p < end; ++p) {
    const bool w = kWordByte[static_cast<uint8_t>(*p)];
    if (w && !run) run = p;
    if (!w && run) {
      c.Run(run, p);
      run = nullptr;
    }
  }
  if (run) c.Run(run, end);
  return c.words;
}

// Cuts [data, data + size) into `threads` ranges after separator bytes, so that no word
// spans two; returns the threads + 1 boundaries.
std::vector<const char*> CutAtWords(const char* data, size_t size, int threads) {
  const char* const end = data + size;
  std::vector<const char*> cuts{data};
  for (int t = 1; t < threads; ++t) {
    const char* c = std::max(cuts.back(), data + size * t / threads);
    while (c < end && kWordByte[static_cast<uint8_t>(*c)]) ++c;
    cuts.push_back(c);
  }
  cuts.push_back(end);
  return cuts;
}

// Share t of the merge: the words whose hash's top bits fall in the t-th of `threads`
// equal ranges, summed over every table, sorted and formatted as "word\tcount\n" lines.
std::string MergeShare(const std::vector<Table>& tables, int t, int threads, size_t* keys) {
  auto share = [threads](uint64_t h) {
    return static_cast<int>((static_cast<unsigned __int128>(h) * threads) >> 64);
  };
  Table merged;
  for (const Table& table : tables)
    for (const Table::Entry& e : table.slots())
      if (e.length != 0 && share(e.hash) == t) merged.Add(table.Key(e), e.hash, e.count);
  std::vector<const Table::Entry*> sorted;
  sorted.reserve(merged.size());
  for (const Table::Entry& e : merged.slots())
    if (e.length != 0) sorted.push_back(&e);
  std::sort(sorted.begin(), sorted.end(),
            [&merged](auto* a, auto* b) { return merged.Key(*a) < merged.Key(*b); });
  std::string out;
  for (const Table::Entry* e : sorted) {
    out.append(merged.Key(*e));
    out.push_back('\t');
    char digits[24];
    out.append(digits, std::to_chars(digits, digits + sizeof digits, e->count).ptr);
    out.push_back('\n');
  }
  *keys = sorted.size();
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4) {
    std::fprintf(stderr, "usage: hand_wordcount FILE THREADS [OUT]\n");
    return 2;
  }
  const int threads = std::atoi(argv[2]);
  if (threads < 1 || threads > 256) {
    std::fprintf(stderr, "hand_wordcount: THREADS must be from 1 to 256\n");
    return 2;
  }
  const auto t0 = std::chrono::steady_clock::now();
  const int fd = ::open(argv[1], O_RDONLY);
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0) {
    std::perror(argv[1]);
    return 1;
  }
  const size_t size = static_cast<size_t>(st.st_size);
  const char* data = "";
  if (size > 0) {
    void* m = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m == MAP_FAILED) {
      std::perror("mmap");
      return 1;
    }
    ::madvise(m, size, MADV_SEQUENTIAL);
    data = static_cast<const char*>(m);
  }
  const std::vector<const char*> cuts = CutAtWords(data, size, threads);

  std::vector<Table> tables(threads);
  std::vector<uint64_t> words(threads);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] { words[t] = CountRange(cuts[t], cuts[t + 1], tables[t]); });
  for (auto& th : pool) th.join();
  pool.clear();

  std::vector<std::string> text(threads);
  std::vector<size_t> keys(threads);
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] { text[t] = MergeShare(tables, t, threads, &keys[t]); });
  for (auto& th : pool) th.join();

  if (argc == 4) {
    FILE* f = std::fopen(argv[3], "wb");
    if (!f) {
      std::perror(argv[3]);
      return 1;
    }
    for (const std::string& s : text) std::fwrite(s.data(), 1, s.size(), f);
    if (std::fclose(f) != 0) {
      std::perror(argv[3]);
      return 1;
    }
  }
  uint64_t total_words = 0, total_keys = 0;
  for (int t = 0; t < threads; ++t) total_words += words[t], total_keys += keys[t];
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::fprintf(stderr, "%zu bytes, %llu words, %llu distinct, %.3f s\n", size,
               static_cast<unsigned long long>(total_words),
               static_cast<unsigned long long>(total_keys), secs);
  return 0;
}
