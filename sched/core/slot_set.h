// A set of slot ids as a bitmap, iterated in ascending id order. The Controller keeps the
// free slots of each kind in one, so that dispatching costs O(free slots / 64) words, not
// O(all slots): with 6,000 simulated slots mostly busy, that is the difference between
// scanning every slot on every task event and touching a few words.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

#include "sched/core/slot_info.h"

namespace mrlocal {

class SlotSet {
 public:
  void Insert(SlotId id) {
    size_t w = static_cast<size_t>(id) / 64;
    if (w >= words_.size()) words_.resize(w + 1, 0);
    words_[w] |= Bit(id);
  }
  void Erase(SlotId id) {
    size_t w = static_cast<size_t>(id) / 64;
    if (w < words_.size()) words_[w] &= ~Bit(id);
  }
  bool Contains(SlotId id) const {
    size_t w = static_cast<size_t>(id) / 64;
    return w < words_.size() && (words_[w] & Bit(id)) != 0;
  }
  // The smallest id in the set that is >= from, or -1.
  SlotId NextFrom(SlotId from) const {
    size_t w = static_cast<size_t>(from) / 64;
    if (w >= words_.size()) return -1;
    uint64_t bits = words_[w] & (~uint64_t{0} << (from % 64));
    while (bits == 0) {
      if (++w == words_.size()) return -1;
      bits = words_[w];
    }
    return static_cast<SlotId>(w * 64 + static_cast<size_t>(std::countr_zero(bits)));
  }
  SlotId First() const { return NextFrom(0); }

 private:
  static uint64_t Bit(SlotId id) { return uint64_t{1} << (id % 64); }
  std::vector<uint64_t> words_;
};

}  // namespace mrlocal
