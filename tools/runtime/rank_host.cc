#include "tools/runtime/rank_host.h"

#include <memory>
#include <utility>
#include <vector>

#include "sched/dist/mpi_executor.h"
#include "sched/dist/slot_host.h"
#include "tools/runtime/job_definition.h"
#include "tools/runtime/real_job.h"

namespace mrlocal {
namespace {

bool SameInputs(const JobInputs& a, const JobInputs& b) {
  return a.files == b.files && a.store_dir == b.store_dir && a.block_size == b.block_size &&
         a.nodes == b.nodes;
}

// The jobs rank 0 sends, built over inputs opened once (the built-in corpus is generated
// once per process, not per job). Stores live as long as this: jobs read from them.
class RankJobs {
 public:
  explicit RankJobs(const JobApp& app) : app_(app) {}

  Result<RealJob> Build(const std::string& definition) {
    Result<JobDefinition> d = JobDefinition::Decode(definition);
    if (!d.ok()) return d.status();
    if (d->app != app_.name)
      return Status::InvalidArgument("rank 0 sent a " + d->app + " job to a rank running " +
                                     app_.name + ": start every rank with the same command");
    Result<JobStore*> store = StoreFor(d->inputs);
    if (!store.ok()) return store.status();
    RealJobRequest q;
    q.app = &app_;
    q.store = (*store)->store.get();
    q.paths = (*store)->paths;
    q.reduces = d->reduces;
    q.partitions = d->partitions;
    q.sketch_rows = d->sketch_rows;
    q.top = d->top;
    q.skip_bad_records = d->skip_bad_records;
    Result<RealJobParts> parts = PrepareRealJob(q);
    if (!parts.ok()) return parts.status();
    if (parts->real.maps != d->maps)
      return Status::InvalidArgument("the input splits into " + std::to_string(parts->real.maps) +
                                     " map tasks here and " + std::to_string(d->maps) +
                                     " on rank 0: every rank must see the same input files");
    return std::move(parts->real);
  }

 private:
  Result<JobStore*> StoreFor(const JobInputs& inputs) {
    for (auto& [in, store] : stores_)
      if (SameInputs(in, inputs)) return store.get();
    Result<JobStore> opened = OpenJobInputs(app_, inputs);
    if (!opened.ok()) return opened.status();
    stores_.emplace_back(inputs, std::make_unique<JobStore>(std::move(opened).value()));
    return stores_.back().second.get();
  }

  const JobApp& app_;
  std::vector<std::pair<JobInputs, std::unique_ptr<JobStore>>> stores_;
};

}  // namespace

Status ServeRank(Transport& transport, const ClusterSpec& cluster, const JobApp& app,
                 const SlotHostOptions& options) {
  RankJobs jobs(app);
  return ServeSlots(
      transport, cluster,
      [&jobs](JobId, const std::string& definition) { return jobs.Build(definition); }, options);
}

Status ServeSlots(Transport& transport, const ClusterSpec& cluster, SlotHost::JobFactory jobs,
                  const SlotHostOptions& options) {
  SteadyClock clock;
  SlotHost host(transport, clock, SlotsOfRank(cluster.Slots(), transport.size(), transport.rank()),
                std::move(jobs), options);
  return host.Serve();
}

}  // namespace mrlocal
