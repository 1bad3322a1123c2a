// DecodeNamespace on any text: a damaged namespace is Corruption, never a crash; one that
// decodes describes files whose blocks cover them exactly, and encodes back to itself.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "check.h"
#include "engine/store_namespace.h"

namespace mrlocal {
namespace {

using mrlocal::fuzz::Check;

void CheckFile(const StoreNamespace& ns, const FileInfo& f) {
  uint64_t covered = 0;
  for (const BlockInfo& b : f.blocks) {
    Check(b.offset == covered && b.length > 0 && b.length <= f.block_size);
    Check(b.id < ns.next_block_id);
    Check(b.replica_nodes.size() == static_cast<size_t>(f.replication));
    for (int node : b.replica_nodes) Check(node >= 0 && node < ns.nodes);
    covered += b.length;
  }
  Check(covered == f.size);
}

}  // namespace
}  // namespace mrlocal

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace mrlocal;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Result<StoreNamespace> ns = DecodeNamespace(text, "namespace");
  if (!ns.ok()) {
    Check(ns.status().code() == Status::Code::kCorruption);
    return 0;
  }
  for (const FileInfo& f : ns->files) CheckFile(*ns, f);
  const std::string encoded = EncodeNamespace(*ns);
  Result<StoreNamespace> again = DecodeNamespace(encoded, "namespace");
  Check(again.ok() && EncodeNamespace(*again) == encoded);
  return 0;
}
