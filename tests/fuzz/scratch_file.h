// For the fuzzers of parsers that read a path: a scratch directory of this process (in
// /dev/shm when there is one, so that writing each input costs no disk), removed at exit.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace mrlocal::fuzz {

inline const std::filesystem::path& ScratchDir() {
  static const std::filesystem::path dir = [] {
    std::filesystem::path base = std::filesystem::is_directory("/dev/shm")
                                     ? std::filesystem::path("/dev/shm")
                                     : std::filesystem::temp_directory_path();
    std::filesystem::path d = base / ("mrlocal-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(ScratchDir(), ec);
    });
    return d;
  }();
  return dir;
}

// ScratchDir()/name holding `bytes`, replacing what it held.
inline std::filesystem::path ScratchFile(const std::string& name, std::string_view bytes) {
  const std::filesystem::path p = ScratchDir() / name;
  std::ofstream(p, std::ios::binary | std::ios::trunc)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return p;
}

}  // namespace mrlocal::fuzz
