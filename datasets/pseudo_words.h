// Pseudo-words: lower-case letters that alternate consonants and vowels ("kelomi"), the
// words of the built-in corpus's ranks past its English word list. Each shape (length,
// first letter a vowel or not) numbers its words, and the numbering can be read back.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mrlocal {

struct WordShape {
  int len = 1;  // 1..16 letters
  bool vowel_first = false;
  bool operator==(const WordShape&) const = default;
};

// How many words the shape has: its words are numbered [0, PseudoWordCount(shape)).
uint64_t PseudoWordCount(WordShape shape);

// Word `index` (< PseudoWordCount(shape)) of the shape. Distinct indices give distinct
// words, spread over the whole alphabet.
std::string PseudoWord(WordShape shape, uint64_t index);

struct PseudoWordIndex {
  WordShape shape;
  uint64_t index;
};

// The shape and index PseudoWord makes `word` from; nullopt when no shape makes it.
std::optional<PseudoWordIndex> IndexOfPseudoWord(std::string_view word);

}  // namespace mrlocal
