// A job's output directory as the executor writes it: an OutputCommitter (engine/
// output_committer.h) seen through the JobOutput interface. It begins (creates its
// temporary directory) only when the first reduce opens a part or the job commits, so a
// job that is rejected, or fails in its maps, leaves nothing behind; OutputCommitter::Check
// refuses a bad directory before the job starts.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "engine/output_committer.h"
#include "sched/core/real_executor.h"

namespace mrlocal {

class CommitterOutput final : public JobOutput {
 public:
  CommitterOutput(std::string dir, bool overwrite) : dir_(std::move(dir)), overwrite_(overwrite) {}
  Result<std::unique_ptr<OutputSink>> OpenPart(uint32_t reduce) override;
  Status Commit(uint32_t parts) override;
  void Abort() override;

 private:
  Status BeginLocked();

  const std::string dir_;
  const bool overwrite_;
  std::mutex mu_;  // reduces open their parts from slot threads
  std::unique_ptr<OutputCommitter> c_;
};

}  // namespace mrlocal
