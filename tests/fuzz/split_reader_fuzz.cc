// ReadSplit over any file and a small block size: every line of the file is in exactly one
// split, whole and in order (the splits' pieces, concatenated, are the file), and each
// piece but the file's last ends a line. The first byte picks the block size.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "check.h"
#include "engine/block_store.h"
#include "engine/split_reader.h"
#include "split_pieces.h"

namespace mrlocal {
namespace {

using mrlocal::fuzz::Check;

// The pieces of every split of `path`, concatenated; checks each piece on the way.
std::string ReadAllSplits(const BlockStore& store, const std::string& path, uint64_t file_size) {
  std::string all;
  fuzz::ForEachSplitPiece(store, path, [&](std::string_view piece) {
    all.append(piece);
    Check(!piece.empty() && (piece.back() == '\n' || all.size() == file_size));
  });
  return all;
}

}  // namespace
}  // namespace mrlocal

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace mrlocal;
  if (size == 0) return 0;
  const uint64_t block_size = 1 + data[0] % 64;
  auto file =
      std::make_shared<const std::string>(reinterpret_cast<const char*>(data) + 1, size - 1);
  auto store = std::move(BlockStore::InMemory({block_size, /*nodes=*/2, 0})).value();
  Check(store->PutBuffer("/in.txt", file).ok());
  Result<uint32_t> blocks = store->BlockCount("/in.txt");
  Check(blocks.ok() && *blocks == (file->size() + block_size - 1) / block_size);
  Check(ReadAllSplits(*store, "/in.txt", file->size()) == *file);
  // Line numbers for bad-record messages: one more than the newlines before the byte.
  const uint64_t offset = file->size() / 2;
  Result<uint64_t> line = LineNumberAt(*store, "/in.txt", offset);
  Check(line.ok() && *line == 1 + static_cast<uint64_t>(
                                      std::count(file->begin(), file->begin() + offset, '\n')));
  return 0;
}
