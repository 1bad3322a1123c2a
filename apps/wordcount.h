// WordCount. A word is an ASCII letter followed by ASCII letters or apostrophes
// ([A-Za-z][A-Za-z']*), case-folded to lower case; every other byte (digits, punctuation,
// '\r', bytes >= 0x80) separates words: Phoenix++ word_count's word set, in lower case.
#pragma once

#include <array>
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

namespace mrlocal::apps {

struct WordCount {
  static constexpr std::string_view kName = "wordcount";
  using Value = uint64_t;

  // What each byte is to the tokenizer: 0 separates; otherwise the byte to append (letters
  // already lower-cased). Apostrophes continue a word but never start one.
  static constexpr std::array<char, 256> kClass = [] {
    std::array<char, 256> t{};
    for (int c = 'a'; c <= 'z'; ++c) t[c] = static_cast<char>(c);
    for (int c = 'A'; c <= 'Z'; ++c) t[c] = static_cast<char>(c - 'A' + 'a');
    t['\''] = '\'';
    return t;
  }();

  // Calls emit(word, 1) for every word of `text` (complete lines). `word` points into a
  // buffer that is only valid during the call.
  template <class Emit>
  static void Map(std::string_view text, std::string& scratch, Emit&& emit) {
    const unsigned char* p = reinterpret_cast<const unsigned char*>(text.data());
    const unsigned char* end = p + text.size();
    char buf[64];
    while (p < end) {
      // Skip to the next letter: a word cannot start with an apostrophe.
      while (p < end && (kClass[*p] == 0 || *p == '\'')) ++p;
      if (p == end) break;
      size_t n = 0;
      char c;
      while (p < end && n < sizeof buf && (c = kClass[*p]) != 0) {
        buf[n++] = c;
        ++p;
      }
      if (n < sizeof buf || p == end || kClass[*p] == 0) {
        emit(std::string_view(buf, n), Value{1});
        continue;
      }
      // A word longer than the stack buffer (a 10 MB "word" is valid input).
      scratch.assign(buf, n);
      while (p < end && (c = kClass[*p]) != 0) {
        scratch.push_back(c);
        ++p;
      }
      emit(std::string_view(scratch), Value{1});
    }
  }

  static void Combine(Value& into, Value v) { into += v; }

  // Shuffle bytes of one (word, count) record: the partition statistics' size unit.
  static uint64_t SizeUnits(std::string_view word, Value) { return word.size() + sizeof(Value); }

  static void Format(std::string& out, std::string_view word, Value count) {
    out.append(word);
    out.push_back('\t');
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, count);
    out.append(buf, r.ptr);
    out.push_back('\n');
  }

  // Top-N order: most frequent first.
  static double Score(Value count) { return static_cast<double>(count); }
};

}  // namespace mrlocal::apps
