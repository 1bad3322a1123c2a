// An allocator for large arrays that go back to the OS the moment they are freed: blocks
// of kMinBytes or more are mapped straight from the kernel (mmap) and unmapped on free;
// smaller ones come from operator new. A growing hash table frees its old array each time
// it doubles, and a malloc (mimalloc, glibc) keeps such freed blocks for reuse by the same
// thread: over WordCount's 16 map tasks of 500 MB they added 31 MiB to the peak resident
// set (issue 23). The cost: the kernel zeroes the pages it maps, which the table's
// zero-initialization then writes again.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <new>

namespace mrlocal {

template <class T>
struct PageAllocator {
  using value_type = T;
  static constexpr size_t kMinBytes = size_t{1} << 20;

  PageAllocator() = default;
  template <class U>
  PageAllocator(const PageAllocator<U>&) {}  // NOLINT: allocators convert implicitly

  T* allocate(size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes < kMinBytes) return static_cast<T*>(::operator new(bytes, std::align_val_t{alignof(T)}));
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes < kMinBytes)
      ::operator delete(p, bytes, std::align_val_t{alignof(T)});
    else
      ::munmap(p, bytes);
  }
  template <class U>
  bool operator==(const PageAllocator<U>&) const {
    return true;
  }
};

}  // namespace mrlocal
