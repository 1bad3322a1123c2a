// The map side's intermediate container (Phoenix++'s hash container + combiner idea): an
// open-addressing hash table that combines on insert, so a word seen a million times
// costs one entry, never a million (word, 1) pairs.
//
// Keys are either strings (`std::string_view`: the bytes are copied into one arena the
// table owns) or integers (stored inline; never turned into strings). Every entry keeps
// the key's 64-bit hash, computed once by the caller and reused for partitioning and
// sketches. Linear probing over a power-of-two table kept at most 3/4 full (1/2 made
// WordCount's tables twice the memory for no speed that its benchmark could tell).
//
// Not thread-safe: one table per task.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "engine/page_allocator.h"

namespace mrlocal {

template <class Key>
concept TableKey = std::is_same_v<Key, std::string_view> || std::is_integral_v<Key>;

namespace internal {

// Where an entry's key lives. Strings: a slice of the arena (length 0 = empty slot, so
// string keys must not be empty). Integers: the key itself and an occupied flag.
template <class Key>
struct KeySlot {
  Key key{};
  bool used = false;
  bool empty() const { return !used; }
};
template <>
struct KeySlot<std::string_view> {
  uint32_t offset = 0;
  uint32_t length = 0;
  bool empty() const { return length == 0; }
};

}  // namespace internal

template <TableKey Key, class Value>
class CombiningTable {
 public:
  static constexpr bool kStringKey = std::is_same_v<Key, std::string_view>;

  struct Entry {
    uint64_t hash = 0;
    internal::KeySlot<Key> slot;
    Value value{};
  };
  // The slot array: large ones straight from the OS, so that a grown table's old array
  // is returned at once (engine/page_allocator.h).
  using Slots = std::vector<Entry, PageAllocator<Entry>>;

  // `arena_limit`: the most bytes of string keys kept (tests set a small one to reach
  // the overflow path; the default is what 32-bit offsets address).
  explicit CombiningTable(size_t initial_capacity = 1 << 12, size_t arena_limit = UINT32_MAX)
      : arena_limit_(arena_limit) {
    size_t cap = 16;
    while (cap < initial_capacity) cap <<= 1;
    slots_.resize(cap);
    mask_ = cap - 1;
  }

  // Finds the entry of `key` (whose hash is `h`), inserting a default Value if absent,
  // and returns its value for the caller to combine into. REQUIRES: a string key is not
  // empty.
  [[gnu::always_inline]] Value& FindOrInsert(Key key, uint64_t h) {
    size_t i = h & mask_;
    for (;;) {
      Entry& e = slots_[i];
      if (e.slot.empty()) return Insert(key, h, i);
      if (e.hash == h && Matches(e.slot, key)) return e.value;
      i = (i + 1) & mask_;
    }
  }

  // Brings the slot where a key of hash `h` starts probing into the cache: a caller that
  // knows its next keys ahead hides the miss that dominates large tables.
  void Prefetch(uint64_t h) const { __builtin_prefetch(&slots_[h & mask_]); }

  size_t size() const { return size_; }

  // The slots in place, empty ones included (`entry.slot.empty()`): for a scan that needs
  // no dense copy. A slot's index stays valid until the next insert.
  std::span<Entry> slots() { return slots_; }
  std::span<const Entry> slots() const { return slots_; }
  Key key(const Entry& e) const { return KeyOf(e, arena_); }
  const std::string& arena() const { return arena_; }  // where string keys' bytes are

  // True once string keys outgrew the arena's 32-bit offsets (4 GiB of distinct keys in
  // one task); values inserted after that went to a scratch entry. Callers check this
  // once per chunk and fail the task.
  bool overflowed() const { return overflowed_; }

  // Moves the entries out (dense, table order) and the key arena with them (string keys
  // only; read a key with KeyOf), without a second array: the entries are moved to the
  // front of the table's own, which the vector then keeps (capacity and all). The table is
  // left empty.
  void ReleaseInPlace(Slots* entries, std::string* arena) {
    size_t n = 0;
    for (size_t i = 0; i < slots_.size(); ++i) {
      if (slots_[i].slot.empty()) continue;
      if (n != i) slots_[n] = std::move(slots_[i]);
      ++n;
    }
    slots_.resize(n);
    *entries = std::move(slots_);
    if (arena) *arena = std::move(arena_);
    slots_.assign(16, Entry{});
    mask_ = 15;
    size_ = 0;
    arena_.clear();
  }

  // The key of an entry released with `arena`.
  static Key KeyOf(const Entry& e, const std::string& arena) {
    if constexpr (kStringKey) {
      return {arena.data() + e.slot.offset, e.slot.length};
    } else {
      (void)arena;
      return e.slot.key;
    }
  }

  size_t memory_bytes() const { return slots_.capacity() * sizeof(Entry) + arena_.capacity(); }

 private:
  bool Matches(const internal::KeySlot<Key>& s, Key key) const {
    if constexpr (kStringKey) {
      return s.length == key.size() && SameBytes(arena_.data() + s.offset, key.data(), key.size());
    } else {
      return s.key == key;
    }
  }

  // The miss path, out of line: `key` is new and slot i is the empty slot it probed to.
  [[gnu::noinline]] Value& Insert(Key key, uint64_t h, size_t i) {
    if constexpr (kStringKey) {
      if (arena_.size() + key.size() > arena_limit_) {
        overflowed_ = true;
        overflow_value_ = Value{};
        return overflow_value_;
      }
    }
    if ((size_ + 1) * 4 > slots_.size() * 3) {
      Grow();
      i = h & mask_;
      while (!slots_[i].slot.empty()) i = (i + 1) & mask_;
    }
    Entry& e = slots_[i];
    e.hash = h;
    if constexpr (kStringKey) {
      e.slot.offset = static_cast<uint32_t>(arena_.size());
      e.slot.length = static_cast<uint32_t>(key.size());
      arena_.append(key);
    } else {
      e.slot.key = key;
      e.slot.used = true;
    }
    ++size_;
    return e.value;
  }

  // memcmp(a, b, n) == 0 without a call for the short keys that dominate (words): a
  // couple of possibly overlapping loads, never past either key's end. REQUIRES: n > 0.
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
    Slots old(slots_.size() * 2);
    old.swap(slots_);
    mask_ = slots_.size() - 1;
    for (Entry& e : old) {
      if (e.slot.empty()) continue;
      size_t i = e.hash & mask_;
      while (!slots_[i].slot.empty()) i = (i + 1) & mask_;
      slots_[i] = std::move(e);
    }
  }

  Slots slots_;
  size_t mask_ = 0;
  size_t size_ = 0;
  std::string arena_;  // string keys only
  size_t arena_limit_;
  bool overflowed_ = false;
  Value overflow_value_{};
};

}  // namespace mrlocal
