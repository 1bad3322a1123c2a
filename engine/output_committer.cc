#include "engine/output_committer.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>

namespace mrlocal {
namespace {

namespace fs = std::filesystem;

// A part file written with plain write(2) into the temporary directory.
class PartWriter final : public OutputSink {
 public:
  PartWriter(fs::path path, int fd) : path_(std::move(path)), fd_(fd) {}
  ~PartWriter() override {
    if (fd_ >= 0) ::close(fd_);
  }
  Status Append(std::string_view bytes) override {
    while (!bytes.empty()) {
      ssize_t n = ::write(fd_, bytes.data(), bytes.size());
      if (n < 0) {
        if (errno == EINTR) continue;
        return Status::IoError("cannot write '" + path_.string() + "': " + std::strerror(errno));
      }
      bytes.remove_prefix(static_cast<size_t>(n));
    }
    return Status::OK();
  }
  Status Close() override {
    int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0)
      return Status::IoError("cannot close '" + path_.string() + "': " + std::strerror(errno));
    return Status::OK();
  }

 private:
  fs::path path_;
  int fd_;
};

}  // namespace

std::string PartName(uint32_t reduce_index) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "part-r-%05u", reduce_index);
  return buf;
}

Result<std::unique_ptr<OutputCommitter>> OutputCommitter::Begin(const fs::path& dir_in,
                                                                bool overwrite) {
  fs::path dir = dir_in.lexically_normal();
  if (dir.filename().empty()) dir = dir.parent_path();  // "out/" -> "out"
  std::error_code ec;
  if (fs::exists(dir, ec)) {
    if (!fs::is_directory(dir, ec))
      return Status::InvalidArgument("output '" + dir.string() + "' exists and is not a directory");
    if (!fs::is_empty(dir, ec) && !overwrite)
      return Status::InvalidArgument("output directory '" + dir.string() +
                                     "' already exists (use --overwrite to replace it)");
  }
  fs::path parent = dir.has_parent_path() ? dir.parent_path() : fs::path(".");
  fs::create_directories(parent, ec);
  if (ec) return Status::IoError("cannot create '" + parent.string() + "': " + ec.message());
  std::random_device rd;
  std::string name = ".";  // hidden, beside DIR, on the same file system
  name += dir.filename().string();
  name += ".mrlocal-tmp-" + std::to_string(::getpid()) + "-" + std::to_string(rd() % 100000);
  fs::path tmp = parent / name;
  fs::create_directory(tmp, ec);
  if (ec) return Status::IoError("cannot create '" + tmp.string() + "': " + ec.message());
  return std::unique_ptr<OutputCommitter>(new OutputCommitter(dir, tmp, overwrite));
}

OutputCommitter::~OutputCommitter() {
  if (!done_) Abort();
}

Result<std::unique_ptr<OutputSink>> OutputCommitter::OpenPart(uint32_t reduce_index) {
  fs::path path = tmp_ / PartName(reduce_index);
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Status::IoError("cannot create '" + path.string() + "': " + std::strerror(errno));
  return std::unique_ptr<OutputSink>(std::make_unique<PartWriter>(path, fd));
}

Status OutputCommitter::Commit(uint32_t parts) {
  std::error_code ec;
  for (uint32_t r = 0; r < parts; ++r) {
    if (!fs::exists(tmp_ / PartName(r), ec))
      return Status::Internal("cannot commit: " + PartName(r) + " was never written");
  }
  {
    FILE* f = std::fopen((tmp_ / "_SUCCESS").c_str(), "w");
    if (!f || std::fclose(f) != 0)
      return Status::IoError("cannot write '" + (tmp_ / "_SUCCESS").string() + "'");
  }
  // Move an existing (empty, or --overwrite) directory aside, put ours in its place, then
  // drop the old one: DIR is never seen half-written.
  fs::path old;
  if (fs::exists(dir_, ec)) {
    old = tmp_;
    old += ".old";
    fs::rename(dir_, old, ec);
    if (ec) return Status::IoError("cannot replace '" + dir_.string() + "': " + ec.message());
  }
  fs::rename(tmp_, dir_, ec);
  if (ec) {
    if (!old.empty()) fs::rename(old, dir_, ec);
    return Status::IoError("cannot rename output into '" + dir_.string() + "': " + ec.message());
  }
  done_ = true;
  if (!old.empty()) fs::remove_all(old, ec);
  return Status::OK();
}

void OutputCommitter::Abort() {
  std::error_code ec;
  fs::remove_all(tmp_, ec);
  done_ = true;
}

}  // namespace mrlocal
