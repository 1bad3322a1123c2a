// Pseudo-words: one word per index of a shape, read back to the index; and the built-in
// corpus's ranks past its English list never repeat a listed word.
#include "datasets/pseudo_words.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "datasets/text_generator.h"

namespace mrlocal {
namespace {

TEST(PseudoWords, EachIndexHasItsOwnWordAndReadsBack) {
  for (int len = 1; len <= 16; ++len) {
    for (bool vowel_first : {false, true}) {
      const WordShape shape{len, vowel_first};
      const uint64_t count = PseudoWordCount(shape);
      const std::set<uint64_t> indices = {0, 1, count / 3, count / 2, count - 1};
      std::set<std::string> seen;
      for (uint64_t i : indices) {
        const std::string w = PseudoWord(shape, i);
        ASSERT_EQ(w.size(), static_cast<size_t>(len));
        const auto back = IndexOfPseudoWord(w);
        ASSERT_TRUE(back) << w;
        EXPECT_EQ(back->shape, shape) << w;
        EXPECT_EQ(back->index, i) << w;
        seen.insert(w);
      }
      EXPECT_EQ(seen.size(), indices.size()) << len << " " << vowel_first;
    }
  }
  // Words no shape makes: two consonants or two vowels in a row, a 'q', an apostrophe.
  for (const char* w : {"the", "queen", "don't", "boat", ""})
    EXPECT_FALSE(IndexOfPseudoWord(w)) << w;
  EXPECT_TRUE(IndexOfPseudoWord("banana"));
}

// A rank past the list whose pseudo-word would be a listed word (e.g. "amiable") is the
// index of that word in its shape; it takes another word, one nobody else has.
TEST(PseudoWords, NoRankPastTheListRepeatsAListedWord) {
  const uint32_t listed = ListedWordCount();
  std::set<std::string> listed_words;
  for (uint32_t r = 1; r <= listed; ++r) listed_words.insert(WordOfRank(r));
  std::set<uint32_t> ranks;
  for (uint32_t r = 1; r <= 200000; ++r) ranks.insert(r);
  int candidates = 0;
  for (const std::string& w : listed_words) {
    const auto p = IndexOfPseudoWord(w);
    if (!p || p->index < listed || p->index >= UINT32_MAX) continue;
    ++candidates;
    const uint32_t rank = static_cast<uint32_t>(p->index) + 1;
    EXPECT_EQ(listed_words.count(WordOfRank(rank)), 0u) << "rank " << rank << ": " << w;
    ranks.insert(rank);
  }
  EXPECT_GT(candidates, 100);  // the list holds many words of pseudo-word shape
  std::set<std::string> words;
  for (uint32_t r : ranks) words.insert(WordOfRank(r));
  EXPECT_EQ(words.size(), ranks.size()) << "distinct ranks, distinct words";
}

}  // namespace
}  // namespace mrlocal
