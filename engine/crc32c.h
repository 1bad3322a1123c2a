// CRC32C (Castagnoli), the checksum of HDFS blocks. The SSE4.2 crc32 instruction when the
// CPU has it (checked at run time), else a portable table-driven version (Boost.CRC).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace mrlocal {

// Extends `crc` (0 to start) over `n` bytes at `data`.
uint32_t Crc32cExtend(uint32_t crc, const void* data, size_t n);
inline uint32_t Crc32c(std::string_view data) { return Crc32cExtend(0, data.data(), data.size()); }

// The two implementations, for tests and benchmarks.
uint32_t Crc32cPortable(uint32_t crc, const void* data, size_t n);
uint32_t Crc32cHardware(uint32_t crc, const void* data, size_t n);  // REQUIRES: HasHardwareCrc32c()
bool HasHardwareCrc32c();

}  // namespace mrlocal
