#include "engine/gzip_lines.h"

#include <string.h>  // memrchr
#include <zlib.h>

#include <algorithm>
#include <cstring>

namespace mrlocal {
namespace {

constexpr size_t kRunTarget = 1 << 20;  // hand out about this much per Next()
constexpr size_t kInflateStep = 1 << 18;

class GzipLineStream final : public LineStream {
 public:
  GzipLineStream(const BlockStore& store, std::string path, uint32_t blocks, uint64_t size,
                 int preferred_node)
      : store_(store),
        path_(std::move(path)),
        blocks_(blocks),
        size_(size),
        preferred_node_(preferred_node) {}

  ~GzipLineStream() override {
    if (zinit_) inflateEnd(&zs_);
  }

  Status Init() {
    std::memset(&zs_, 0, sizeof zs_);
    if (inflateInit2(&zs_, 16 + MAX_WBITS) != Z_OK)  // 16: a gzip wrapper, not zlib's
      return Status::Internal(path_ + ": cannot initialize zlib");
    zinit_ = true;
    return Status::OK();
  }

  Result<std::string_view> Next() override {
    // Forget the run handed out last time; keep the partial line after it (no '\n' in it).
    lines_before_ += static_cast<uint64_t>(std::count(buf_.data(), buf_.data() + run_, '\n'));
    buf_.erase(0, run_);
    run_ = 0;
    size_t scanned = buf_.size();  // bytes known to hold no '\n'
    for (;;) {
      // A run ends after the last '\n' once there is enough, or at the end of the input.
      if (done_) {
        run_ = buf_.size();  // the last line may lack its '\n'
        return std::string_view(buf_.data(), run_);
      }
      if (buf_.size() >= kRunTarget) {
        const void* nl = memrchr(buf_.data() + scanned, '\n', buf_.size() - scanned);
        if (nl) {
          run_ = static_cast<size_t>(static_cast<const char*>(nl) - buf_.data()) + 1;
          return std::string_view(buf_.data(), run_);
        }
        scanned = buf_.size();  // one line longer than a run: inflate until it ends
      }
      MRLOCAL_RETURN_IF_ERROR(Inflate());
    }
  }

  double progress() const override {
    if (size_ == 0) return 1.0;
    return static_cast<double>(consumed_) / static_cast<double>(size_);
  }

  uint64_t input_bytes() const override { return size_; }

  std::string Locate(size_t offset) const override {
    offset = std::min(offset, run_);
    uint64_t line = lines_before_ + 1 +
                    static_cast<uint64_t>(std::count(buf_.data(), buf_.data() + offset, '\n'));
    return path_ + ":" + std::to_string(line);
  }

 private:
  // Inflates up to kInflateStep more bytes into buf_, reading the next block when the
  // inflater has consumed the current one. Sets done_ at the end of the last member.
  Status Inflate() {
    if (zs_.avail_in == 0) {
      if (next_block_ >= blocks_) {
        // The input ended: fine between members (or in an empty file), truncation inside
        // one (inflateReset sets total_in back to 0 at each member's end).
        if (zs_.total_in > 0)
          return Status::Corruption(path_ + ": unexpected end of gzip data (truncated file?)");
        done_ = true;
        return Status::OK();
      }
      consumed_ = block_end_;
      auto read = store_.ReadBlock(path_, next_block_++, preferred_node_);
      if (!read.ok()) return read.status();
      block_ = std::move(read).value();
      block_end_ = block_.offset + block_.data.size();
      zs_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(block_.data.data()));
      zs_.avail_in = static_cast<uInt>(block_.data.size());
    }
    const size_t old = buf_.size();
    buf_.resize(old + kInflateStep);
    zs_.next_out = reinterpret_cast<Bytef*>(buf_.data() + old);
    zs_.avail_out = static_cast<uInt>(kInflateStep);
    int rc = inflate(&zs_, Z_NO_FLUSH);
    buf_.resize(old + kInflateStep - zs_.avail_out);
    consumed_ = block_end_ - zs_.avail_in;
    switch (rc) {
      case Z_OK:
      case Z_BUF_ERROR:  // no progress: more input is needed (read at the next call)
        return Status::OK();
      case Z_STREAM_END:
        if (inflateReset(&zs_) != Z_OK) return Status::Internal(path_ + ": inflateReset failed");
        return Status::OK();
      default:  // Z_DATA_ERROR, Z_NEED_DICT, Z_MEM_ERROR
        return Status::Corruption(path_ + ": not valid gzip data (" +
                                  (zs_.msg ? zs_.msg : "zlib error " + std::to_string(rc)) + ")");
    }
  }

  const BlockStore& store_;
  const std::string path_;
  const uint32_t blocks_;
  const uint64_t size_;
  const int preferred_node_;
  z_stream zs_{};
  bool zinit_ = false;
  BlockRead block_;  // the block being inflated (its bytes stay valid while held)
  uint32_t next_block_ = 0;
  uint64_t block_end_ = 0;  // file offset just past block_
  uint64_t consumed_ = 0;   // compressed bytes inflated so far
  bool done_ = false;
  std::string buf_;            // inflated bytes: the run handed out, then a partial line
  size_t run_ = 0;             // bytes of buf_ handed out by the last Next()
  uint64_t lines_before_ = 0;  // '\n' bytes before buf_
};

}  // namespace

bool IsGzipPath(std::string_view path) {
  return path.size() > 3 && path.substr(path.size() - 3) == ".gz";
}

Result<std::unique_ptr<LineStream>> OpenGzipLines(const BlockStore& store, const std::string& path,
                                                  int preferred_node) {
  auto info = store.Stat(path);
  if (!info.ok()) return info.status();
  auto stream = std::make_unique<GzipLineStream>(
      store, path, static_cast<uint32_t>(info->blocks.size()), info->size, preferred_node);
  MRLOCAL_RETURN_IF_ERROR(stream->Init());
  return std::unique_ptr<LineStream>(std::move(stream));
}

}  // namespace mrlocal
