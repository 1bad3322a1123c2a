// A bound on the process's memory, as YARN's NodeManager bounds a container's: running
// tasks read the resident set between chunks and stop once it passed the limit, so that a
// job whose map outputs outgrow the machine (100 million distinct keys, a gzip bomb of
// distinct edges) fails with one line instead of being killed by the kernel's OOM killer.
// The map outputs are held in memory until the job ends (the engine does not spill), so
// this is the bound on what a job may hold.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace mrlocal {

class MemoryLimit {
 public:
  // The smallest limit a user may set: below it the process's own code and a slot's first
  // table would pass it.
  static constexpr uint64_t kMinBytes = uint64_t{64} << 20;
  // Reads of the resident set are at least this far apart (each one costs a system call;
  // tasks checkpoint every MiB of input).
  static constexpr std::chrono::milliseconds kReadEvery{5};

  explicit MemoryLimit(uint64_t bytes) : bytes_(bytes) {}
  uint64_t bytes() const { return bytes_; }

  // True once the resident set, read at most every kReadEvery, is above the limit.
  // Thread-safe; any slot thread calls it.
  bool Exceeded() const;
  // The resident set at the last read (0 before the first).
  uint64_t last_resident() const { return last_resident_.load(std::memory_order_relaxed); }

  // This process's resident set now (/proc/self/statm), 0 where it cannot be read.
  static uint64_t ResidentBytes();
  // What the process may still take: the kernel's MemAvailable, and under a cgroup (v2)
  // memory limit, what is left below it; 0 where neither can be read.
  static uint64_t AvailableBytes();
  // The machine's memory (MemTotal), or the cgroup's limit when lower; 0 if unreadable.
  static uint64_t TotalBytes();
  // The default: what the process holds now and 80% of what is available (what the
  // machine's other processes and the page cache's floor keep, and room for what one
  // chunk of a task may allocate past the last read), or unbounded (UINT64_MAX)
  // where the system does not say.
  static uint64_t DefaultBytes();

 private:
  const uint64_t bytes_;
  mutable std::atomic<int64_t> next_read_ns_{0};
  mutable std::atomic<uint64_t> last_resident_{0};
};

}  // namespace mrlocal
