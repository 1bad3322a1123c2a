// CombiningTable against std::unordered_map: many times past its initial capacity (every
// growth rehashes what it holds), with keys whose hashes collide, for string and integer
// keys; and what ReleaseInPlace hands over.
#include "engine/combining_table.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

namespace mrlocal {
namespace {

// A deliberately poor hash: every 8 consecutive ids share one value, so that equal hashes
// with different keys are common and probe runs are long.
uint64_t PoorHash(uint64_t x) { return (x / 8) * 0x9E3779B97F4A7C15ull; }

TEST(CombiningTable, StringKeysPastItsCapacityCountAsAReferenceMap) {
  CombiningTable<std::string_view, uint64_t> table(16);
  std::unordered_map<std::string, uint64_t> reference;
  std::mt19937_64 rng(7);
  std::string key;
  for (int i = 0; i < 100'000; ++i) {
    // Zipf-like: a few keys often, many rarely; lengths 1 to 40 (the short-key compare
    // paths and memcmp).
    const uint64_t id = rng() % (1 + rng() % 30'000);
    key.assign(1 + id % 40, static_cast<char>('a' + id % 26));
    key += std::to_string(id);
    const uint64_t n = 1 + rng() % 3;
    table.FindOrInsert(key, PoorHash(id)) += n;
    reference[key] += n;
    if (i % 25'000 == 0) {
      EXPECT_EQ(table.size(), reference.size());
    }
  }
  EXPECT_FALSE(table.overflowed());
  ASSERT_EQ(table.size(), reference.size());
  EXPECT_GT(table.size(), 16u * 1000) << "grew many times over its first capacity";

  // Every key again: found, not inserted twice, with its count.
  for (const auto& [k, count] : reference) {
    const uint64_t id = std::stoull(k.substr(k.find_first_of("0123456789")));
    EXPECT_EQ(table.FindOrInsert(k, PoorHash(id)), count) << k;
  }
  EXPECT_EQ(table.size(), reference.size());

  CombiningTable<std::string_view, uint64_t>::Slots entries;
  std::string arena;
  table.ReleaseInPlace(&entries, &arena);
  EXPECT_EQ(table.size(), 0u);
  ASSERT_EQ(entries.size(), reference.size());
  std::unordered_map<std::string, uint64_t> released;
  for (const auto& e : entries) {
    std::string k(CombiningTable<std::string_view, uint64_t>::KeyOf(e, arena));
    const uint64_t id = std::stoull(k.substr(k.find_first_of("0123456789")));
    EXPECT_EQ(e.hash, PoorHash(id)) << k;
    EXPECT_TRUE(released.emplace(k, e.value).second) << k << " released twice";
  }
  EXPECT_EQ(released, reference);

  // Released, the table starts over empty and still works.
  table.FindOrInsert("again", 1) += 5;
  EXPECT_EQ(table.size(), 1u);
  EXPECT_EQ(table.FindOrInsert("again", 1), 5u);
}

TEST(CombiningTable, IntegerKeysIncludingZeroPastItsCapacity) {
  CombiningTable<uint32_t, uint64_t> table(16);
  std::unordered_map<uint32_t, uint64_t> reference;
  std::mt19937_64 rng(11);
  for (int i = 0; i < 100'000; ++i) {
    const uint32_t key = static_cast<uint32_t>(rng() % 40'000);  // 0 is a key like any other
    table.FindOrInsert(key, PoorHash(key)) += key + 1;
    reference[key] += key + 1;
  }
  ASSERT_EQ(table.size(), reference.size());
  for (const auto& [k, sum] : reference) EXPECT_EQ(table.FindOrInsert(k, PoorHash(k)), sum) << k;

  CombiningTable<uint32_t, uint64_t>::Slots entries;
  table.ReleaseInPlace(&entries, nullptr);
  std::unordered_map<uint32_t, uint64_t> released;
  for (const auto& e : entries)
    released[CombiningTable<uint32_t, uint64_t>::KeyOf(e, std::string())] += e.value;
  EXPECT_EQ(released, reference);
}

// ReleaseInPlace hands over the table's own array (no second one: the vector keeps the
// table's capacity) holding every key once with its value, and the table starts over.
TEST(CombiningTable, ReleaseInPlaceHandsOverEveryKeyInTheTablesOwnArray) {
  using Table = CombiningTable<std::string_view, uint64_t>;
  Table table(16);
  std::map<std::string, std::pair<uint64_t, uint64_t>> reference;  // key -> (hash, value)
  std::mt19937_64 rng(5);
  for (int i = 0; i < 50'000; ++i) {
    const uint64_t id = rng() % 9'000;
    std::string k = "w";
    k += std::to_string(id);  // (not "w" + ...: GCC 12 warns falsely of an overlap there)
    table.FindOrInsert(k, PoorHash(id)) += 1;
    reference[k] = {PoorHash(id), reference[k].second + 1};
  }
  Table::Slots released;
  std::string arena;
  const size_t table_bytes = table.memory_bytes();  // its slots and its arena
  table.ReleaseInPlace(&released, &arena);
  EXPECT_EQ(released.capacity() * sizeof(Table::Entry) + arena.capacity(), table_bytes);
  std::map<std::string, std::pair<uint64_t, uint64_t>> got;
  for (const auto& e : released)
    EXPECT_TRUE(got.emplace(std::string(Table::KeyOf(e, arena)), std::pair(e.hash, e.value)).second);
  EXPECT_EQ(got, reference);
  EXPECT_EQ(table.size(), 0u);
  table.FindOrInsert("again", 1) += 5;
  EXPECT_EQ(table.FindOrInsert("again", 1), 5u);
}

TEST(CombiningTable, KeysWithTheSameHashStayApart) {
  CombiningTable<std::string_view, uint64_t> table(16);
  const std::vector<std::string> keys = {"a",
                                         "b",
                                         "ab",
                                         "ba",
                                         "abcdefgh",
                                         "abcdefgi",
                                         "a long key past sixteen bytes",
                                         "a long key past sixteen bytez"};
  for (int round = 1; round <= 3; ++round)
    for (const std::string& k : keys) table.FindOrInsert(k, 42) += round;
  EXPECT_EQ(table.size(), keys.size());
  for (const std::string& k : keys) EXPECT_EQ(table.FindOrInsert(k, 42), 6u) << k;
}

TEST(CombiningTable, StringKeysPastItsArenaLimitOverflowAndKeepWhatFitted) {
  // 32 bytes of keys: four 8-byte keys fit, the fifth overflows. The typed runtime fails
  // the task on overflowed() (engine/typed_job.h); the table itself must stay consistent.
  CombiningTable<std::string_view, uint64_t> table(16, 32);
  const std::vector<std::string> keys = {"aaaaaaaa", "bbbbbbbb", "cccccccc",
                                         "dddddddd", "eeeeeeee", "ffffffff"};
  for (size_t i = 0; i < keys.size(); ++i) table.FindOrInsert(keys[i], i) += 10 + i;
  EXPECT_TRUE(table.overflowed());
  EXPECT_EQ(table.size(), 4u);
  // A key already held still combines in place after the overflow.
  table.FindOrInsert(keys[1], 1) += 100;
  CombiningTable<std::string_view, uint64_t>::Slots entries;
  std::string arena;
  table.ReleaseInPlace(&entries, &arena);
  std::unordered_map<std::string, uint64_t> got;
  for (const auto& e : entries)
    got[std::string(CombiningTable<std::string_view, uint64_t>::KeyOf(e, arena))] = e.value;
  const std::unordered_map<std::string, uint64_t> want = {
      {"aaaaaaaa", 10}, {"bbbbbbbb", 111}, {"cccccccc", 12}, {"dddddddd", 13}};
  EXPECT_EQ(got, want);
}

}  // namespace
}  // namespace mrlocal
