#include "tools/runtime/job_run.h"

#include <algorithm>
#include <mutex>

#include "sched/policy/policy_registry.h"
#include "tools/runtime/committer_output.h"
#include "tools/runtime/probe.h"

namespace mrlocal {
namespace {

Duration Since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration_cast<Duration>(std::chrono::steady_clock::now() - t);
}

}  // namespace

Result<std::unique_ptr<JobRun>> JobRun::Prepare(const JobRequest& request,
                                                const JobRunNotes& notes) {
  auto policy = FindPolicy(request.policy);
  if (!policy.ok()) return policy.status();
  std::unique_ptr<JobRun> run(new JobRun(request));
  run->needs_estimator_ = (*policy)->traits.needs_estimator;
  MRLOCAL_RETURN_IF_ERROR(run->SetUpStore(notes));
  RealJobRequest q;
  q.app = request.app;
  q.store = run->store_.get();
  q.paths = run->paths_;
  q.reduces = request.reduces;
  q.partitions = request.partitions;
  q.sketch_rows = request.sketch_rows;
  q.top = request.top;
  q.skip_bad_records = request.skip_bad_records;
  q.queue = request.queue;
  q.replica_faults = FaultInjector(request.faults, 1).ReplicaFaults();
  // Begun only once a reduce writes: a rejected job leaves nothing.
  if (!request.output.empty())
    q.output = std::make_shared<CommitterOutput>(request.output, request.overwrite);
  auto prepared = PrepareRealJob(q);
  if (!prepared.ok()) return prepared.status();
  run->prepared_ = std::move(prepared).value();
  if (request.transport) run->prepared_.real.definition = run->Definition();
  MRLOCAL_RETURN_IF_ERROR(run->Probe(notes));
  const HistoryFile* file = request.history;
  run->estimator_ = std::make_unique<RunEstimator>(
      request.estimator, file ? &file->history() : nullptr, file ? file->knn() : KnnObservations{});
  // What the admission message and the report say the estimates rest on.
  if (run->estimate_ && request.estimator == EstimatorKind::kKnn) run->estimate_->source = "knn";
  run->recorder_ = std::make_unique<RunRecorder>();
  auto runtime = run->MakeRuntime(request.policy, run->recorder_.get());
  if (!runtime.ok()) return runtime.status();
  run->runtime_ = std::move(runtime).value();
  return run;
}

JobRun::~JobRun() = default;

Status JobRun::SetUpStore(const JobRunNotes& notes) {
  auto opened = OpenJobInputs(*request_.app, Inputs(), notes.generating_default_input);
  if (!opened.ok()) return opened.status();
  store_ = std::move(opened->store);
  paths_ = std::move(opened->paths);
  return Status::OK();
}

JobInputs JobRun::Inputs() const {
  JobInputs in;
  in.files = request_.inputs;
  in.store_dir = request_.store_dir;
  in.block_size = request_.block_size;
  in.nodes = request_.cluster.nodes();
  return in;
}

// What another rank needs to run the same job (an MPI run).
std::string JobRun::Definition() const {
  JobDefinition d;
  d.app = request_.app->name;
  d.inputs = Inputs();
  d.reduces = request_.reduces;
  d.partitions = request_.partitions;
  d.sketch_rows = request_.sketch_rows;
  d.top = request_.top;
  d.skip_bad_records = request_.skip_bad_records;
  d.maps = static_cast<uint32_t>(prepared_.spec.maps.size());
  return d.Encode();
}

// Why a deadline policy cannot take the history's estimate of this job as it is, or "".
std::string JobRun::ProbeReason() const {
  const std::string& app = request_.app->name;
  const AppEstimate* e = request_.history->history().Find(app);
  if (!e) return "no history for " + app;
  double largest = 0;
  for (const JobSpec::MapSplit& m : prepared_.spec.maps)
    largest = std::max(largest, static_cast<double>(m.bytes));
  if (!OutsideObservedSizes(*e, largest)) return "";
  return app + "'s history has no map near this job's size (" +
         std::to_string(static_cast<uint64_t>(largest)) + " units)";
}

// A deadline policy with no history for the app, or none of tasks of this job's size: a
// probe, whose estimate is for this run only (the file gets real jobs).
Status JobRun::Probe(const JobRunNotes& notes) {
  if (!request_.history) return Status::OK();
  JobHistory& history = request_.history->history();
  const JobApp& app = *request_.app;
  if (const std::string why = needs_estimator_ ? ProbeReason() : ""; !why.empty()) {
    auto descriptor = request_.apps->Find(app.name);
    if (!descriptor.ok()) return descriptor.status();
    ProbeRequest q;
    q.app = &app;
    q.store = store_.get();
    q.paths = paths_;
    q.cluster = request_.cluster;
    q.pin = request_.pin;
    q.skip_bad_records = request_.skip_bad_records;
    auto probed = ProbeApp(**descriptor, q, [&](std::string_view what) {
      if (notes.probing) notes.probing(why, what);
    });
    if (!probed.ok()) return probed.status();
    history.Set(app.name, *probed);
  }
  if (const AppEstimate* e = history.Find(app.name)) estimate_ = *e;
  // As real workloads do: history's worst case was seen on a machine that may be busier
  // now. A probe's widening already allows for that.
  if (estimate_ && estimate_->source != "probe") estimate_margin_ = kRealEstimateMargin;
  return Status::OK();
}

Result<std::unique_ptr<Runtime>> JobRun::MakeRuntime(const std::string& policy,
                                                     RunRecorder* recorder) const {
  RuntimeOptions ro;
  ro.cluster = request_.cluster;
  ro.policy = policy;
  ro.estimator = estimator_->estimator();
  ro.learner = estimator_->learner();
  ro.policy_args = request_.policy_args;
  ro.policy_args.Set(kEstimateMargin, estimate_margin_);
  ro.partitioner = request_.partitioner;
  ro.pin = request_.pin;
  ro.transport = request_.transport;
  ro.controller.retry.max_attempts = request_.max_attempts;
  ro.controller.speculation.enabled = request_.speculative.value_or(!request_.transport);
  ro.memory_limit = request_.memory_limit;
  for (const Fault& f : request_.faults)
    if (!f.of_replica()) ro.faults.push_back(f);
  auto runtime = Runtime::Real(std::move(ro));
  if (!runtime.ok()) return runtime.status();
  if (const std::string_view veto = (*runtime)->policy().speculation_veto();
      request_.speculative.value_or(false) && !veto.empty())
    return Status::InvalidArgument("--speculative: " + std::string(veto));
  (*runtime)->AddObserver(recorder);
  for (ControllerObserver* o : observers_) (*runtime)->AddObserver(o);
  return runtime;
}

void JobRun::AddObserver(ControllerObserver* observer) {
  observers_.push_back(observer);
  runtime_->AddObserver(observer);
}

// Submitted with what is left of the deadline and the goal after setup_.
void JobRun::SubmitTo(Runtime& runtime) {
  JobSpec spec = prepared_.spec;
  // A deadline that passed during set-up is submitted as the least there is, so that the
  // admission still rejects it with what would have been feasible.
  if (request_.deadline) spec.deadline = std::max(*request_.deadline - setup_, Duration(1));
  // A goal is no reason to reject: one that passed during set-up stays <= 0 (past due).
  if (request_.goal) spec.goal = *request_.goal - setup_;
  id_ = runtime.Submit({std::move(spec), prepared_.real});
}

Submission JobRun::Submit() {
  Submission s;
  s.setup = setup_ = Since(request_.start);
  // Only admission control rejects: fifo, fair and edf admit every job, late or not.
  s.deadline_passed =
      request_.deadline && setup_ >= *request_.deadline && runtime_->policy().admission_control();
  SubmitTo(*runtime_);
  const Admission& admission = outcome().admission;
  s.admitted = admission.admitted;
  if (!admission.admitted && admission.estimated_finish())
    rejected_estimate_ = *admission.estimated_finish() - job().arrival;
  return s;
}

Status JobRun::RunAnyway() {
  auto recorder = std::make_unique<RunRecorder>();
  auto runtime = MakeRuntime(BestEffortPolicy().name, recorder.get());
  if (!runtime.ok()) return runtime.status();
  runtime_ = std::move(runtime).value();  // the rejected run's goes, then its recorder
  recorder_ = std::move(recorder);
  best_effort_ = true;
  setup_ = Since(request_.start);
  SubmitTo(*runtime_);
  return Status::OK();
}

void JobRun::Run(Interrupt* interrupt) {
  if (interrupt) interrupt->Watch(runtime_.get());
  runtime_->Run();
  if (interrupt) interrupt->Watch(nullptr);
}

const JobState& JobRun::job() const { return runtime_->controller().state().job(id_); }
const JobOutcome& JobRun::outcome() const { return runtime_->controller().outcome(id_); }

JobReport JobRun::Report() const {
  MetricsContext context;
  context.policy = best_effort_ ? BestEffortPolicy().name : request_.policy;
  context.admission_policy = request_.policy;
  context.best_effort = best_effort_;
  context.cluster = request_.cluster.ToString();
  context.partitioner = request_.partitioner;
  context.total_slots = request_.cluster.TaskCapacity();
  context.admission_control = !best_effort_ && runtime_->policy().admission_control();
  context.setup = setup_;
  context.scheduler = &runtime_->controller().stats();
  JobReport report{ComputeMetrics(*recorder_, context), ComputeJobMetrics(*recorder_, setup_)};
  JobMetrics& job = report.jobs.front();  // the recorder saw the job's submission
  if (job.top.size() > static_cast<size_t>(request_.top))
    job.top.resize(static_cast<size_t>(request_.top));
  if (best_effort_) {
    job.admitted = false;
    job.estimated_finish_s.reset();
    if (rejected_estimate_) job.estimated_finish_s = Seconds(*rejected_estimate_);
  }
  if (estimate_ && needs_estimator_) {
    job.estimate_source = estimate_->source;
    job.estimate_jobs = estimate_->jobs;
  }
  return report;
}

Status JobRun::RecordHistory(std::ostream& out, std::ostream& err, bool quiet, bool interrupted) {
  // Only a job that ran to its end tells what the app's tasks take.
  if (!request_.history || job().phase != JobPhase::kDone || interrupted) return Status::OK();
  const ClusterState& state = runtime_->controller().state();
  return request_.history->Record(ObserveJob(job(), state, outcome().map_output_units),
                                  KnnObserveJob(job(), state), out, err, quiet);
}

}  // namespace mrlocal
