// A vector whose copies share their elements until one of them is changed: a copy costs a
// reference count, and the first change through a shared copy copies the elements once,
// in one block (one allocation and a memcpy). RTMR keeps some queued jobs' slot vectors,
// equal to other jobs' or to the working copy it plans on (sched/policy/rtmr_policy.h).
//
// REQUIRES: T trivially copyable (the elements are copied as bytes). Not thread-safe:
// copies may be used from one thread only. A pointer or reference from Own() or the
// non-const operator[] is valid until the vector is next copied, grown or destroyed.
#pragma once

#include <cstddef>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

namespace mrlocal {

template <typename T>
class SharedVector {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

 public:
  SharedVector() = default;
  SharedVector(const SharedVector& other) : block_(other.block_) {
    if (block_) ++block_->refs;
  }
  SharedVector(SharedVector&& other) noexcept : block_(std::exchange(other.block_, nullptr)) {}
  SharedVector& operator=(SharedVector other) noexcept {
    std::swap(block_, other.block_);
    return *this;
  }
  ~SharedVector() { Release(block_); }

  size_t size() const { return block_ ? block_->size : 0; }
  bool empty() const { return size() == 0; }
  const T& operator[](size_t i) const { return Items(block_)[i]; }
  T& operator[](size_t i) { return Own()[i]; }
  void push_back(const T& item) {
    if (size() == Capacity()) {
      Block* old = std::exchange(block_, Copy(block_, size() < 4 ? 4 : 2 * size()));
      Release(old);
    }
    T* items = Own();
    new (items + block_->size) T(item);
    ++block_->size;
  }
  // REQUIRES: !empty().
  void pop_back() {
    Own();
    --block_->size;
  }
  // The elements to change in place, copied first if another vector shares them.
  T* Own() {
    if (block_ && block_->refs > 1) {
      Block* own = Copy(block_, block_->capacity);
      --block_->refs;  // still held by the others
      block_ = own;
    }
    return block_ ? Items(block_) : nullptr;
  }

 private:
  struct alignas(std::max_align_t) Block {
    size_t refs;
    size_t size;
    size_t capacity;
  };
  static_assert(alignof(T) <= alignof(Block));

  static T* Items(Block* b) { return reinterpret_cast<T*>(b + 1); }
  static const T* Items(const Block* b) { return reinterpret_cast<const T*>(b + 1); }
  size_t Capacity() const { return block_ ? block_->capacity : 0; }

  // A block of its own with room for `capacity`, holding `from`'s elements (if any).
  static Block* Copy(const Block* from, size_t capacity) {
    const size_t size = from ? from->size : 0;
    void* raw = ::operator new(sizeof(Block) + capacity * sizeof(T));
    Block* b = new (raw) Block{1, size, capacity};
    if (from) std::memcpy(static_cast<void*>(Items(b)), Items(from), size * sizeof(T));
    return b;
  }
  static void Release(Block* b) {
    if (b && --b->refs == 0) ::operator delete(b);
  }

  Block* block_ = nullptr;
};

}  // namespace mrlocal
