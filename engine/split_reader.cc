#include "engine/split_reader.h"

#include <algorithm>

namespace mrlocal {

Result<SplitData> ReadSplit(const BlockStore& store, const std::string& path, uint32_t block,
                            int preferred_node, uint64_t max_line) {
  auto count = store.BlockCount(path);
  if (!count.ok()) return count.status();
  auto first = store.ReadBlock(path, block, preferred_node);
  if (!first.ok()) return first.status();
  SplitData split;
  split.input.source = BlockName(path, first->block_id);
  split.warnings = std::move(first->warnings);
  split.keepalive.push_back(std::move(first->keepalive));
  split.bytes_read = first->data.size();
  const std::string_view d = first->data;
  const uint64_t block_offset = first->offset;
  std::vector<uint64_t> piece_offsets;  // where each piece starts in the file
  const BlockStore* store_ptr = &store;
  auto set_locate = [&] {
    split.input.locate = [store_ptr, path, piece_offsets](size_t piece, size_t offset) {
      auto line = LineNumberAt(*store_ptr, path, piece_offsets.at(piece) + offset);
      return path + ":" + (line.ok() ? std::to_string(*line) : std::string("?"));
    };
  };

  // Lines start at 0 and after each '\n'. Skip the line that started in an earlier split:
  // the earlier split owns it, even when it starts exactly at our first byte.
  size_t begin = 0;
  if (block > 0) {
    size_t nl = d.find('\n');
    if (nl == std::string_view::npos) return split;  // all inside a line begun earlier
    begin = nl + 1;
  }
  // Our complete lines, as a view into the block.
  size_t last_nl = d.rfind('\n');
  size_t body_end =
      (last_nl == std::string_view::npos || last_nl + 1 < begin) ? begin : last_nl + 1;
  if (body_end > begin) {
    split.input.pieces.push_back(d.substr(begin, body_end - begin));
    piece_offsets.push_back(block_offset + begin);
  }

  // The line that starts at body_end <= end (it may start exactly at our end, when the
  // block ends with '\n') and runs into the following blocks: copy its bytes up to and
  // including the first '\n', or to the end of the file.
  std::string_view head = d.substr(body_end);
  uint32_t next = block + 1;
  if (head.empty() && next >= *count) {
    set_locate();
    return split;
  }
  auto tail = std::make_shared<std::string>(head);
  for (bool closed = false; !closed && next < *count; ++next) {
    auto b = store.ReadBlock(path, next, preferred_node);
    if (!b.ok()) return b.status();
    for (auto& w : b->warnings) split.warnings.push_back(std::move(w));
    std::string_view nd = b->data;
    size_t nl = nd.find('\n');
    closed = nl != std::string_view::npos;
    size_t take = closed ? nl + 1 : nd.size();
    if (tail->size() + take > max_line)
      return Status::InvalidArgument(
          path + ": the line from byte " + std::to_string(block_offset + body_end) +
          " is longer than " + std::to_string(max_line) + " bytes, the longest line mrlocal reads");
    tail->append(nd.substr(0, take));
    split.bytes_read += take;
  }
  if (!tail->empty()) {
    split.input.pieces.push_back(*tail);
    piece_offsets.push_back(block_offset + body_end);
    split.tail = std::move(tail);
  }
  set_locate();
  return split;
}

Result<uint64_t> LineNumberAt(const BlockStore& store, const std::string& path, uint64_t offset) {
  auto info = store.Stat(path);
  if (!info.ok()) return info.status();
  uint64_t newlines = 0;
  for (uint32_t b = 0; b < info->blocks.size() && info->blocks[b].offset < offset; ++b) {
    auto read = store.ReadBlock(path, b, -1);
    if (!read.ok()) return read.status();
    const uint64_t n = std::min<uint64_t>(read->data.size(), offset - info->blocks[b].offset);
    newlines += static_cast<uint64_t>(std::count(read->data.begin(), read->data.begin() + n, '\n'));
  }
  return newlines + 1;
}

}  // namespace mrlocal
