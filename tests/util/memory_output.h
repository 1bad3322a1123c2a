// A job's output kept in memory: each reduce's part, and how the job ended (for executor
// tests that check what was committed without touching the file system).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "sched/core/real_executor.h"

namespace mrlocal::testing {

class MemoryOutput final : public JobOutput {
 public:
  Result<std::unique_ptr<OutputSink>> OpenPart(uint32_t reduce) override {
    struct Sink final : OutputSink {
      Sink(MemoryOutput& out, uint32_t reduce) : out(out), reduce(reduce) {}
      Status Append(std::string_view bytes) override {
        text.append(bytes);
        return Status::OK();
      }
      Status Close() override {
        std::lock_guard lock(out.mu);
        out.parts[reduce] = text;
        return Status::OK();
      }
      MemoryOutput& out;
      uint32_t reduce;
      std::string text;
    };
    return std::unique_ptr<OutputSink>(std::make_unique<Sink>(*this, reduce));
  }
  Status Commit(uint32_t parts) override {
    committed_parts = parts;
    return Status::OK();
  }
  void Abort() override { aborted = true; }

  std::mutex mu;
  std::map<uint32_t, std::string> parts;  // guarded by mu: the closed ones
  std::optional<uint32_t> committed_parts;
  bool aborted = false;
};

}  // namespace mrlocal::testing
