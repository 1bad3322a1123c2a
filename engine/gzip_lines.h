// Gzip input, read as Hadoop reads it: a file whose name ends in ".gz" is one
// non-splittable split, decompressed by its map task while it reads the lines. Several
// concatenated gzip members read as one stream, as zcat reads them.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "engine/block_store.h"
#include "engine/line_stream.h"

namespace mrlocal {

// True when `path` names a gzip file (by its suffix, as Hadoop's codec factory decides).
bool IsGzipPath(std::string_view path);

// The lines of the gzip file `path` in `store`. Blocks are read (and checksum-verified,
// preferring replicas on `preferred_node`) one at a time as the inflater needs them, so
// memory is one block plus the longest line. Errors (not gzip, corrupt, truncated) come
// from Next() as Corruption "PATH: ...". The stream reads through `store`: it must not
// outlive it.
Result<std::unique_ptr<LineStream>> OpenGzipLines(const BlockStore& store, const std::string& path,
                                                  int preferred_node);

}  // namespace mrlocal
