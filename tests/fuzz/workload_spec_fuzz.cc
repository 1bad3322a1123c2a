// The workload readers on any text: a JSON spec (ParseWorkloadJson), a queues file
// (ParseQueueListJson) and an availability CSV (ParseAvailabilityCsv). Errors are one
// line of InvalidArgument, never a crash or an exception; what parses is within bounds.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "check.h"
#include "datasets/availability_profile.h"
#include "datasets/workload_spec.h"
#include "fuzz_apps.h"

namespace mrlocal {
namespace {

using mrlocal::fuzz::Check;

void CheckError(const Status& s) {
  Check(s.code() == Status::Code::kInvalidArgument);
  Check(s.message().find('\n') == std::string::npos);
}

void CheckSpec(const WorkloadSpec& spec) {
  for (size_t i = 0; i < spec.jobs.size(); ++i) {
    const WorkloadJob& job = spec.jobs[i];
    Check(job.arrival_s >= 0 && (i == 0 || spec.jobs[i - 1].arrival_s <= job.arrival_s));
    Check(job.weight > 0);
  }
  for (const AvailabilityProfile& a : spec.availability)
    for (size_t i = 1; i < a.steps.size(); ++i) Check(a.steps[i - 1].at_s < a.steps[i].at_s);
}

}  // namespace
}  // namespace mrlocal

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace mrlocal;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Result<WorkloadSpec> spec = ParseWorkloadJson(text, "spec.json", fuzz::Apps());
  if (spec.ok())
    CheckSpec(*spec);
  else
    CheckError(spec.status());
  Result<std::vector<QueueSpec>> queues = ParseQueueListJson(text, "q.json");
  if (!queues.ok()) CheckError(queues.status());
  Result<std::vector<ProfileStep>> csv = ParseAvailabilityCsv(text);
  if (!csv.ok()) CheckError(csv.status());
  return 0;
}
