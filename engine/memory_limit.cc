#include "engine/memory_limit.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>

namespace mrlocal {
namespace {

// A "Name:   N kB" line of /proc/meminfo, in bytes; 0 when absent.
uint64_t MeminfoBytes(const std::string& name) {
  std::ifstream in("/proc/meminfo");
  std::string key;
  uint64_t kib = 0;
  std::string unit;
  while (in >> key >> kib) {
    std::getline(in, unit);
    if (key == name + ":") return kib << 10;
  }
  return 0;
}

// A cgroup v2 file of this process's cgroup holding one number (or "max"); 0 otherwise.
uint64_t CgroupBytes(const std::string& file) {
  std::ifstream self("/proc/self/cgroup");
  std::string line;
  while (std::getline(self, line)) {
    if (line.rfind("0::", 0) != 0) continue;  // the v2 hierarchy's line
    std::ifstream f("/sys/fs/cgroup" + line.substr(3) + "/" + file);
    uint64_t v = 0;
    return f >> v ? v : 0;  // "max" reads as no number: no limit
  }
  return 0;
}

}  // namespace

bool MemoryLimit::Exceeded() const {
  const int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                          std::chrono::steady_clock::now().time_since_epoch())
                          .count();
  int64_t next = next_read_ns_.load(std::memory_order_relaxed);
  if (now >= next &&
      next_read_ns_.compare_exchange_strong(
          next, now + std::chrono::nanoseconds(kReadEvery).count(), std::memory_order_relaxed))
    last_resident_.store(ResidentBytes(), std::memory_order_relaxed);
  return last_resident_.load(std::memory_order_relaxed) > bytes_;
}

uint64_t MemoryLimit::ResidentBytes() {
  // statm: size resident shared text lib data dt, in pages. One read, no parsing of text.
  FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long long size = 0, resident = 0;
  const int n = std::fscanf(f, "%llu %llu", &size, &resident);
  std::fclose(f);
  return n == 2 ? resident * static_cast<uint64_t>(::sysconf(_SC_PAGESIZE)) : 0;
}

uint64_t MemoryLimit::AvailableBytes() {
  uint64_t available = MeminfoBytes("MemAvailable");
  if (const uint64_t max = CgroupBytes("memory.max"); max > 0) {
    const uint64_t used = CgroupBytes("memory.current");
    const uint64_t left = max > used ? max - used : 0;
    available = available == 0 ? left : std::min(available, left);
  }
  return available;
}

uint64_t MemoryLimit::TotalBytes() {
  uint64_t total = MeminfoBytes("MemTotal");
  if (const uint64_t max = CgroupBytes("memory.max"); max > 0)
    total = total == 0 ? max : std::min(total, max);
  return total;
}

uint64_t MemoryLimit::DefaultBytes() {
  const uint64_t available = AvailableBytes();
  if (available == 0) return UINT64_MAX;
  return ResidentBytes() + available / 5 * 4;
}

}  // namespace mrlocal
