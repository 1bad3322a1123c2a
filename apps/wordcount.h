// WordCount. A word is an ASCII letter followed by ASCII letters or apostrophes
// ([A-Za-z][A-Za-z']*), case-folded to lower case; every other byte (digits, punctuation,
// '\r', bytes >= 0x80) separates words: Phoenix++ word_count's word set, in lower case.
#pragma once

#include <emmintrin.h>

#include <array>
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

namespace mrlocal::apps {

struct WordCount {
  static constexpr std::string_view kName = "wordcount";
  static constexpr bool kTextInput = true;  // Map reads lines of the input files
  using Key = std::string_view;
  using Value = uint64_t;

  // Byte classes: kLetter for [A-Za-z], kWordByte for letters and the apostrophe.
  // Lower-casing is then `byte | 0x20`, which maps 'A'..'Z' to 'a'..'z' and leaves
  // lower-case letters and the apostrophe (0x27) as they are.
  static constexpr std::array<bool, 256> kLetter = [] {
    std::array<bool, 256> t{};
    for (int c = 'a'; c <= 'z'; ++c) t[c] = t[c - 'a' + 'A'] = true;
    return t;
  }();
  static constexpr std::array<bool, 256> kWordByte = [] {
    std::array<bool, 256> t = kLetter;
    t['\''] = true;
    return t;
  }();

  // Calls out.Emit(word, 1) for every word of `text` (complete lines). `word` points into
  // a buffer that is only valid during the call.
  //
  // 64 bytes at a time, SSE2 classifies bytes into two bit masks (letters, word bytes);
  // runs of word bytes are then found with bit scans, so the per-byte cost is a fraction
  // of an instruction and the work is per word. The tail (< 64 bytes) goes byte by byte.
  template <class Out>
  static void Map(std::string_view text, Out& out) {
    const char* const begin = text.data();
    const char* const end = begin + text.size();
    const char* run = nullptr;  // start of the open run of word bytes, if any
    const char* p = begin;
    for (; end - p >= 64; p += 64) {
      uint64_t word = WordByteMask(p);
      uint64_t prev = run ? 1 : 0;  // the byte before this block was a word byte
      uint64_t starts = word & ~((word << 1) | prev);
      uint64_t stops = ~word & ((word << 1) | prev);
      // Starts and stops alternate; a run open from the previous block stops first.
      for (;;) {
        if (!run) {
          if (!starts) break;
          run = p + __builtin_ctzll(starts);
          starts &= starts - 1;
        }
        if (!stops) break;  // the run goes on into the next block
        EmitRun(run, p + __builtin_ctzll(stops), end, out);
        stops &= stops - 1;
        run = nullptr;
      }
    }
    // The tail, byte by byte, continuing an open run.
    for (; p < end; ++p) {
      bool w = kWordByte[static_cast<unsigned char>(*p)];
      if (w && !run) run = p;
      if (!w && run) {
        EmitRun(run, p, end, out);
        run = nullptr;
      }
    }
    if (run) EmitRun(run, end, end, out);
  }

  static void Combine(Value& into, Value n) { into += n; }  // Phoenix++'s sum_combiner
  static void Merge(Value& into, const Value& other) { into += other; }
  static void Reduce(Key, Value&) {}

  // Shuffle bytes of one (word, count) record: the partition statistics' size unit.
  static uint64_t SizeUnits(Key word, const Value&) { return word.size() + sizeof(Value); }

  static void FormatKey(std::string& out, Key word) { out.append(word); }
  static void FormatValue(std::string& out, const Value& count) {
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, count);
    out.append(buf, r.ptr);
  }

  // Top-N order: most frequent first.
  static double Score(Key, const Value& count) { return static_cast<double>(count); }

  // A line longer than a map chunk may be cut at any byte that is not part of a word.
  static bool IsSeparator(char c) { return !kWordByte[static_cast<unsigned char>(c)]; }

 private:
  // Bit i set when p[i] is a letter or an apostrophe.
  static uint64_t WordByteMask(const char* p) {
    const __m128i k20 = _mm_set1_epi8(0x20), ka = _mm_set1_epi8('a'), k25 = _mm_set1_epi8(25),
                  kq = _mm_set1_epi8('\'');
    uint64_t mask = 0;
    for (int k = 0; k < 4; ++k) {
      __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
      __m128i x = _mm_sub_epi8(_mm_or_si128(v, k20), ka);  // letters -> 0..25
      __m128i letter = _mm_cmpeq_epi8(_mm_min_epu8(x, k25), x);
      __m128i word = _mm_or_si128(letter, _mm_cmpeq_epi8(v, kq));
      mask |= static_cast<uint64_t>(static_cast<uint32_t>(_mm_movemask_epi8(word))) << (16 * k);
    }
    return mask;
  }

  // A run of word bytes [s, e): the word is the run without its leading apostrophes.
  template <class Out>
  [[gnu::always_inline]] static void EmitRun(const char* s, const char* e, const char* text_end,
                                             Out& out) {
    while (s < e && *s == '\'') ++s;
    if (s == e) return;
    const size_t n = static_cast<size_t>(e - s);
    alignas(16) char buf[64];
    char* dst = buf;
    if (n > sizeof buf) {  // a long "word" (a 10 MB one is valid input)
      out.scratch().resize(n + 16);
      dst = out.scratch().data();
    }
    const __m128i k20 = _mm_set1_epi8(0x20);
    size_t i = 0;
    // 16 bytes at a time while the source has them; the bytes past the word are ignored.
    for (; i < n && text_end - (s + i) >= 16; i += 16) {
      __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), _mm_or_si128(v, k20));
    }
    for (; i < n; ++i) dst[i] = static_cast<char>(s[i] | 0x20);
    out.Emit(std::string_view(dst, n), Value{1});
  }
};

}  // namespace mrlocal::apps
