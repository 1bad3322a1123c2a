// ParseSwimTrace on any text: errors are one line of InvalidArgument naming the trace and
// line; a trace that parses gives jobs in arrival order with tasks within bounds. The
// first byte picks the options (app, block size, job limit), the rest is the trace.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>

#include "check.h"
#include "datasets/swim_trace.h"
#include "fuzz_apps.h"

namespace mrlocal {
namespace {

using mrlocal::fuzz::Check;

TraceOptions OptionsOf(uint8_t b) {
  constexpr uint64_t kBlockSizes[] = {64ull << 20, 1ull << 20, 4096, 1};
  constexpr size_t kLimits[] = {0, 1, 2, 10};
  TraceOptions o;
  o.app = (b & 1) ? "friendcount" : "wordcount";
  o.block_size = kBlockSizes[(b >> 1) & 3];
  o.limit = kLimits[(b >> 3) & 3];
  return o;
}

void CheckSpec(const WorkloadSpec& spec, const TraceOptions& o) {
  Check(!spec.jobs.empty() && (o.limit == 0 || spec.jobs.size() <= o.limit));
  std::set<std::string> names;
  for (size_t i = 0; i < spec.jobs.size(); ++i) {
    const WorkloadJob& job = spec.jobs[i];
    Check(job.app == o.app && names.insert(job.name).second);
    Check(i == 0 || spec.jobs[i - 1].arrival_s <= job.arrival_s);
    Check(job.maps >= 1 && job.reduces <= o.max_reduces);
    Check(job.input.kind == InputSpec::Kind::kGenerated);
  }
}

}  // namespace
}  // namespace mrlocal

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace mrlocal;
  if (size == 0) return 0;
  const TraceOptions options = OptionsOf(data[0]);
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  Result<WorkloadSpec> spec = ParseSwimTrace(text, "trace.tsv", fuzz::Apps(), options);
  if (spec.ok()) {
    CheckSpec(*spec, options);
  } else {
    Check(spec.status().code() == Status::Code::kInvalidArgument);
    Check(spec.status().message().starts_with("trace.tsv"));
    Check(spec.status().message().find('\n') == std::string::npos);
  }
  return 0;
}
