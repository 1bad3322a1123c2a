#include "tools/runtime/committer_output.h"

namespace mrlocal {

Result<std::unique_ptr<OutputSink>> CommitterOutput::OpenPart(uint32_t reduce) {
  std::lock_guard<std::mutex> lock(mu_);
  MRLOCAL_RETURN_IF_ERROR(BeginLocked());
  return c_->OpenPart(reduce);
}

Status CommitterOutput::Commit(uint32_t parts) {
  std::lock_guard<std::mutex> lock(mu_);
  MRLOCAL_RETURN_IF_ERROR(BeginLocked());
  return c_->Commit(parts);
}

void CommitterOutput::Abort() {
  std::lock_guard<std::mutex> lock(mu_);
  if (c_) c_->Abort();
}

Status CommitterOutput::BeginLocked() {
  if (c_) return Status::OK();
  auto c = OutputCommitter::Begin(dir_, overwrite_);
  if (!c.ok()) return c.status();
  c_ = std::move(c).value();
  return Status::OK();
}

}  // namespace mrlocal
