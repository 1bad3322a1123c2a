// CRC32C (Castagnoli), the checksum of HDFS blocks. The SSE4.2 crc32 instruction when the
// CPU has it (checked once at run time), else a portable table-driven version (Boost.CRC).
// All functions are pure and thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace mrlocal {

// Extends `crc` (0 to start) over `n` bytes at `data`: Crc32cExtend(Crc32c(a), b) equals
// Crc32c(a + b). Standard check value: Crc32c("123456789") == 0xE3069283.
uint32_t Crc32cExtend(uint32_t crc, const void* data, size_t n);
inline uint32_t Crc32cExtend(uint32_t crc, std::string_view data) {
  return Crc32cExtend(crc, data.data(), data.size());
}
inline uint32_t Crc32c(std::string_view data) { return Crc32cExtend(0, data); }

// The two implementations, exposed for tests and benchmarks.
uint32_t Crc32cPortable(uint32_t crc, const void* data, size_t n);
// REQUIRES: HasHardwareCrc32c().
uint32_t Crc32cHardware(uint32_t crc, const void* data, size_t n);
bool HasHardwareCrc32c();

}  // namespace mrlocal
