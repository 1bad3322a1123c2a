// Where mrlocal keeps a user's files between runs (calibration, job history): the XDG data
// directory, unless an environment variable names the file itself.
#pragma once

#include <cstdlib>
#include <filesystem>

namespace mrlocal {

// $env_var when set and non-empty, else $XDG_DATA_HOME/mrlocal/file_name, else
// $HOME/.local/share/mrlocal/file_name (relative to the current directory without HOME).
inline std::filesystem::path UserDataPath(const char* env_var, const char* file_name) {
  if (const char* p = std::getenv(env_var); p && *p) return p;
  if (const char* x = std::getenv("XDG_DATA_HOME"); x && *x)
    return std::filesystem::path(x) / "mrlocal" / file_name;
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home && *home ? home : ".") / ".local" / "share" / "mrlocal" /
         file_name;
}

}  // namespace mrlocal
