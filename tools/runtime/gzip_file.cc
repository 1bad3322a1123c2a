#include "tools/runtime/gzip_file.h"

#include <zlib.h>

#include <filesystem>
#include <map>
#include <mutex>
#include <tuple>

namespace mrlocal {

Result<std::string> InflateFile(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) return Status::NotFound("cannot read '" + path + "'");
  std::string out;
  char buf[1 << 16];
  int n;
  while ((n = gzread(f, buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  std::string error;
  if (n < 0) {
    int code;
    error = gzerror(f, &code);
  }
  gzclose(f);
  if (n < 0) return Status::InvalidArgument("cannot inflate '" + path + "': " + error);
  return out;
}

Result<uint64_t> InflatedSize(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const uint64_t size = fs::file_size(path, ec);
  if (ec) return Status::NotFound("cannot read '" + path + "': " + ec.message());
  const auto mtime = fs::last_write_time(path, ec).time_since_epoch().count();
  using Key = std::tuple<std::string, uint64_t, int64_t>;
  static std::mutex mu;
  static std::map<Key, uint64_t> known;
  const Key key{path, size, static_cast<int64_t>(mtime)};
  {
    std::lock_guard lock(mu);
    if (auto it = known.find(key); it != known.end()) return it->second;
  }
  auto text = InflateFile(path);  // outside the lock: other files need not wait
  if (!text.ok()) return text.status();
  std::lock_guard lock(mu);
  return known[key] = text->size();
}

}  // namespace mrlocal
