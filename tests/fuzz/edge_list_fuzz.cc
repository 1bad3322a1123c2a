// Friend-count's edge lists as its map tasks read them: plain files through the splits of
// a small block size, gzip files through the gzip line stream. Each line's fate (an edge,
// skipped, a bad record) must be what a plain tokenizer says it is, and a gzip file made
// of the text must read back as the text. The first byte picks the mode and block size:
// bit 0 plain or gzip; for gzip, bit 1 the input's raw bytes or the text gzipped by us;
// the rest the block size.
#include <zlib.h>

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "apps/friendcount.h"
#include "check.h"
#include "engine/block_store.h"
#include "engine/gzip_lines.h"
#include "split_pieces.h"

namespace mrlocal {
namespace {

using apps::FriendCount;

using mrlocal::fuzz::Check;

// What a map task did with its lines: each edge (u, v) once, and each bad line.
struct Seen {
  std::vector<std::pair<uint64_t, uint64_t>> edges;
  std::vector<std::string> bad;
  bool operator==(const Seen&) const = default;
};

// The output friend-count's Map writes to.
struct Recorder {
  Seen* seen;
  bool second = false;  // Map emits (u, v) then (v, u): keep the first of each pair
  void Emit(uint64_t u, uint64_t v) {
    if (!second) seen->edges.emplace_back(u, v);
    second = !second;
  }
  void Prefetch(uint64_t) {}
  void BadRecord(std::string_view line, const char*) { seen->bad.emplace_back(line); }
};

bool Blank(char c) { return c == ' ' || c == '\t'; }

// The edge-list format by its definition: blank-separated fields after dropping one '\r'
// at the end; nothing or a first field starting with '#' is skipped, two ids are an edge.
Seen Reference(std::string_view text) {
  Seen seen;
  for (size_t pos = 0; pos < text.size();) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    const std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    std::string_view body = line;
    if (!body.empty() && body.back() == '\r') body.remove_suffix(1);
    std::vector<std::string_view> fields;
    for (size_t i = 0; i < body.size();) {
      while (i < body.size() && Blank(body[i])) ++i;
      size_t j = i;
      while (j < body.size() && !Blank(body[j])) ++j;
      if (j > i) fields.push_back(body.substr(i, j - i));
      i = j;
    }
    if (fields.empty() || fields[0][0] == '#') continue;
    uint64_t id[2];
    bool ok = fields.size() == 2;
    for (int k = 0; ok && k < 2; ++k) {
      auto [end, ec] =
          std::from_chars(fields[k].data(), fields[k].data() + fields[k].size(), id[k]);
      ok = ec == std::errc() && end == fields[k].data() + fields[k].size();
    }
    if (!ok)
      seen.bad.emplace_back(line);
    else if (id[0] != id[1])
      seen.edges.emplace_back(id[0], id[1]);
  }
  return seen;
}

std::unique_ptr<BlockStore> StoreWith(const std::string& path, std::string bytes,
                                      uint64_t block_size) {
  auto store = std::move(BlockStore::InMemory({block_size, /*nodes=*/1, 0})).value();
  Check(store->PutBuffer(path, std::make_shared<const std::string>(std::move(bytes))).ok());
  return store;
}

Seen MapPlain(std::string_view text, uint64_t block_size) {
  auto store = StoreWith("/edges.txt", std::string(text), block_size);
  Seen seen;
  Recorder out{&seen};
  fuzz::ForEachSplitPiece(*store, "/edges.txt",
                          [&](std::string_view piece) { FriendCount().Map(piece, out); });
  return seen;
}

// The text of the gzip file, mapped on the way; none when the stream reports it damaged.
std::optional<std::string> MapGzip(std::string bytes, uint64_t block_size, Seen* seen) {
  auto store = StoreWith("/edges.gz", std::move(bytes), block_size);
  auto stream = std::move(OpenGzipLines(*store, "/edges.gz", -1)).value();
  Recorder out{seen};
  std::string text;
  for (;;) {
    Result<std::string_view> run = stream->Next();
    if (!run.ok()) {
      Check(run.status().code() == Status::Code::kCorruption);
      return std::nullopt;
    }
    if (run->empty()) return text;
    Check(text.empty() || text.back() == '\n');  // only the last run may end mid-line
    text.append(*run);
    FriendCount().Map(*run, out);
  }
}

// `text` as gzip, cut into two members at `cut` (zcat reads them as one stream).
std::string Gzip(std::string_view text, size_t cut) {
  std::string out;
  for (std::string_view part : {text.substr(0, cut), text.substr(cut)}) {
    z_stream zs{};
    Check(deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8,
                       Z_DEFAULT_STRATEGY) == Z_OK);
    std::string member(deflateBound(&zs, part.size()), '\0');
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(part.data()));
    zs.avail_in = static_cast<uInt>(part.size());
    zs.next_out = reinterpret_cast<Bytef*>(member.data());
    zs.avail_out = static_cast<uInt>(member.size());
    Check(deflate(&zs, Z_FINISH) == Z_STREAM_END);
    member.resize(zs.total_out);
    deflateEnd(&zs);
    out += member;
  }
  return out;
}

}  // namespace
}  // namespace mrlocal

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace mrlocal;
  if (size == 0) return 0;
  const uint8_t mode = data[0];
  // Small blocks for plain files, to cut lines everywhere; gzip files in blocks of 16 B
  // to 1 KiB, as each block costs the inflater a fresh 256 KiB of output buffer.
  const uint64_t block_size = (mode & 1) == 0 ? 1 + (mode >> 2) % 48 : 16 * (1 + (mode >> 2));
  const std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
  if ((mode & 1) == 0) {
    Check(MapPlain(input, block_size) == Reference(input));
    return 0;
  }
  Seen seen;
  if ((mode & 2) == 0) {  // any bytes: a clear error or lines mapped as the reference maps them
    std::optional<std::string> text = MapGzip(std::string(input), block_size, &seen);
    if (text) Check(seen == Reference(*text));
    return 0;
  }
  std::optional<std::string> text = MapGzip(Gzip(input, input.size() / 2), block_size, &seen);
  Check(text && *text == input && seen == Reference(input));
  return 0;
}
