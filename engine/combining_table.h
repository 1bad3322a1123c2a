// The map side's intermediate container (Phoenix++'s hash container + sum_combiner idea):
// an open-addressing hash table from string keys to values that combines on insert, so a
// word seen a million times costs one entry, never a million (word, 1) pairs.
//
// Keys live in one arena; entries hold the key's 64-bit hash (computed once, reused for
// partitioning and sketches), its place in the arena and the value. Linear probing over a
// power-of-two table kept at most 1/2 full.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace mrlocal {

template <class Value>
class CombiningTable {
 public:
  struct Entry {
    uint64_t hash = 0;
    uint32_t key_offset = 0;
    uint32_t key_length = 0;  // 0 marks an empty slot (keys are never empty)
    Value value{};
  };

  explicit CombiningTable(size_t initial_capacity = 1 << 12) {
    size_t cap = 16;
    while (cap < initial_capacity) cap <<= 1;
    slots_.resize(cap);
    mask_ = cap - 1;
  }

  // Finds the entry of `key` (with hash `h`), inserting a default value if absent, and
  // returns its value for the caller to combine into. REQUIRES: !key.empty().
  [[gnu::always_inline]] Value& FindOrInsert(std::string_view key, uint64_t h) {
    size_t i = h & mask_;
    for (;;) {
      Entry& e = slots_[i];
      if (e.key_length == 0) return Insert(key, h, i);
      if (e.hash == h && e.key_length == key.size() &&
          SameBytes(arena_.data() + e.key_offset, key.data(), key.size()))
        return e.value;
      i = (i + 1) & mask_;
    }
  }

  size_t size() const { return size_; }
  std::string_view key(const Entry& e) const { return {arena_.data() + e.key_offset, e.key_length}; }

  // Moves the entries out (dense, table order) and the key arena with them.
  void Release(std::vector<Entry>* entries, std::string* arena) {
    entries->clear();
    entries->reserve(size_);
    for (Entry& e : slots_)
      if (e.key_length) entries->push_back(std::move(e));
    *arena = std::move(arena_);
    slots_.assign(16, Entry{});
    mask_ = 15;
    size_ = 0;
    arena_.clear();
  }

  size_t memory_bytes() const { return slots_.capacity() * sizeof(Entry) + arena_.capacity(); }

 private:
  // The miss path, out of line: `key` is new and slot i is the empty slot it probed to.
  [[gnu::noinline]] Value& Insert(std::string_view key, uint64_t h, size_t i) {
    if ((size_ + 1) * 2 > slots_.size()) {
      Grow();
      i = h & mask_;
      while (slots_[i].key_length) i = (i + 1) & mask_;
    }
    Entry& e = slots_[i];
    e.hash = h;
    e.key_offset = static_cast<uint32_t>(arena_.size());
    e.key_length = static_cast<uint32_t>(key.size());
    arena_.append(key);
    ++size_;
    return e.value;
  }

  // memcmp(a, b, n) == 0 without a call for the short keys that dominate (words): a
  // couple of possibly overlapping loads, never past either key's end.
  static bool SameBytes(const char* a, const char* b, size_t n) {
    auto load64 = [](const char* p) {
      uint64_t v;
      std::memcpy(&v, p, 8);
      return v;
    };
    auto load32 = [](const char* p) {
      uint32_t v;
      std::memcpy(&v, p, 4);
      return v;
    };
    if (n >= 8) {
      if (n > 16) return std::memcmp(a, b, n) == 0;
      return load64(a) == load64(b) && load64(a + n - 8) == load64(b + n - 8);
    }
    if (n >= 4) return load32(a) == load32(b) && load32(a + n - 4) == load32(b + n - 4);
    return a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1];
  }

  void Grow() {
    std::vector<Entry> old(slots_.size() * 2);
    old.swap(slots_);
    mask_ = slots_.size() - 1;
    for (Entry& e : old) {
      if (!e.key_length) continue;
      size_t i = e.hash & mask_;
      while (slots_[i].key_length) i = (i + 1) & mask_;
      slots_[i] = std::move(e);
    }
  }

  std::vector<Entry> slots_;
  size_t mask_ = 0;
  size_t size_ = 0;
  std::string arena_;
};

}  // namespace mrlocal
