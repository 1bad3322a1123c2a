#include "sched/dist/mpi_transport.h"

#include <mpi.h>
#include <sys/prctl.h>

#include <chrono>
#include <climits>
#include <cstdlib>
#include <thread>

namespace mrlocal {
namespace {

constexpr int kTag = 0x6d72;  // "mr": every mrlocal message
constexpr auto kPollAtOnce = std::chrono::microseconds(100);
constexpr auto kFirstPause = std::chrono::microseconds(5);
constexpr auto kMaxPause = std::chrono::microseconds(200);
constexpr auto kFinalizeWait = std::chrono::seconds(5);

std::string MpiError(const char* call, int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) length = 0;
  return std::string(call) + ": " + std::string(text, static_cast<size_t>(length));
}

}  // namespace

struct MpiTransport::Pending {
  std::string bytes;  // must stay put until the send completes
  MPI_Request request = MPI_REQUEST_NULL;
};

bool MpiTransport::Launched() {
  // Open MPI's mpirun, MPICH's Hydra, PMI-1/2 (srun --mpi=pmi2) and PMIx (srun --mpi=pmix).
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"})
    if (std::getenv(name)) return true;
  return false;
}

int MpiTransport::LaunchedRank() {
  if (!Launched()) return -1;
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"})
    if (const char* value = std::getenv(name)) return std::atoi(value);
  return -1;
}

Result<std::unique_ptr<MpiTransport>> MpiTransport::JoinIfLaunched() {
  if (Launched()) return Init();
  const char* tasks = std::getenv("SLURM_STEP_NUM_TASKS");  // set by srun for its tasks
  if (tasks && std::atoi(tasks) > 1)
    return Status::InvalidArgument(
        "srun started " + std::string(tasks) +
        " tasks without MPI, so each would run the whole job: use srun --mpi=pmix (or "
        "MpiDefault=pmix in slurm.conf), or srun -n 1");
  return std::unique_ptr<MpiTransport>();
}

Result<std::unique_ptr<MpiTransport>> MpiTransport::Init() {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    int provided = MPI_THREAD_SINGLE;
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS)
      return Status::IoError("MPI_Init_thread failed");
    if (provided < MPI_THREAD_SERIALIZED) {
      MPI_Finalize();
      return Status::Internal(
          "this MPI library does not support MPI_THREAD_SERIALIZED, which mrlocal needs");
    }
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rank = 0, size = 1, length = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char host[MPI_MAX_PROCESSOR_NAME];
  if (MPI_Get_processor_name(host, &length) != MPI_SUCCESS) length = 0;
  // The ranks that share this host (shared memory): this one's index among them.
  int local_rank = 0;
  MPI_Comm local;
  if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &local) ==
      MPI_SUCCESS) {
    MPI_Comm_rank(local, &local_rank);
    MPI_Comm_free(&local);
  }
  return std::unique_ptr<MpiTransport>(
      new MpiTransport(rank, size, local_rank, std::string(host, static_cast<size_t>(length))));
}

MpiTransport::MpiTransport(int rank, int size, int local_rank, std::string host)
    : rank_(rank), size_(size), local_rank_(local_rank), host_(std::move(host)) {}

MpiTransport::~MpiTransport() {
  const auto give_up = std::chrono::steady_clock::now() + kFinalizeWait;
  for (;;) {
    {
      std::lock_guard lock(mu_);
      (void)Reap();
      if (pending_.empty()) break;
    }
    if (std::chrono::steady_clock::now() > give_up) {
      // A peer that never takes its messages: cancel rather than hang in MPI_Finalize.
      std::lock_guard lock(mu_);
      for (auto& p : pending_) {
        MPI_Cancel(&p->request);
        MPI_Request_free(&p->request);
      }
      pending_.clear();
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  MPI_Finalize();
}

Status MpiTransport::Reap() {
  for (size_t i = 0; i < pending_.size();) {
    int done = 0;
    const int rc = MPI_Test(&pending_[i]->request, &done, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) return Status::IoError(MpiError("MPI_Test", rc));
    if (done) {
      pending_[i] = std::move(pending_.back());
      pending_.pop_back();
    } else {
      ++i;
    }
  }
  return Status::OK();
}

Status MpiTransport::Send(int to, std::string bytes) {
  if (to < 0 || to >= size_)
    return Status::InvalidArgument("rank " + std::to_string(to) + " is not in a world of " +
                                   std::to_string(size_));
  if (bytes.size() > static_cast<size_t>(INT_MAX))
    return Status::InvalidArgument("a message of " + std::to_string(bytes.size()) +
                                   " bytes (MPI counts are ints)");
  if (to == rank_) {
    {
      std::lock_guard lock(mu_);
      to_self_.push_back(std::move(bytes));
    }
    sent_.notify_one();
    return Status::OK();
  }
  auto p = std::make_unique<Pending>();
  p->bytes = std::move(bytes);
  std::lock_guard lock(mu_);
  MRLOCAL_RETURN_IF_ERROR(Reap());
  const int rc = MPI_Isend(p->bytes.data(), static_cast<int>(p->bytes.size()), MPI_BYTE, to, kTag,
                           MPI_COMM_WORLD, &p->request);
  if (rc != MPI_SUCCESS)
    return Status::IoError("rank " + std::to_string(to) + ": " + MpiError("MPI_Isend", rc));
  pending_.push_back(std::move(p));
  ++sends_;
  sent_.notify_one();  // an answer is likely soon: the receiving thread polls at once again
  return Status::OK();
}

Result<std::optional<Transport::Message>> MpiTransport::Probe() {
  MRLOCAL_RETURN_IF_ERROR(Reap());
  int found = 0;
  MPI_Status status;
  int rc = MPI_Iprobe(MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &found, &status);
  if (rc != MPI_SUCCESS) return Status::IoError(MpiError("MPI_Iprobe", rc));
  if (!found) return std::optional<Message>();
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  Message m;
  m.from = status.MPI_SOURCE;
  m.bytes.resize(static_cast<size_t>(count));
  rc = MPI_Recv(m.bytes.data(), count, MPI_BYTE, status.MPI_SOURCE, kTag, MPI_COMM_WORLD,
                MPI_STATUS_IGNORE);
  if (rc != MPI_SUCCESS)
    return Status::IoError("rank " + std::to_string(m.from) + ": " + MpiError("MPI_Recv", rc));
  return std::optional<Message>(std::move(m));
}

Result<std::optional<Transport::Message>> MpiTransport::Receive(std::chrono::nanoseconds timeout) {
  // Sleeps of a few microseconds need the thread's timer slack (50 us by default) cut.
  static thread_local const bool kSlackCut = prctl(PR_SET_TIMERSLACK, 1000UL) == 0;
  (void)kSlackCut;
  auto since = std::chrono::steady_clock::now();
  const auto until = since + timeout;
  auto pause = kFirstPause;
  std::unique_lock lock(mu_);
  uint64_t sends_seen = sends_;
  for (;;) {
    if (!to_self_.empty()) {
      Message m{rank_, std::move(to_self_.front())};
      to_self_.pop_front();
      return std::optional<Message>(std::move(m));
    }
    Result<std::optional<Message>> got = Probe();
    if (!got.ok() || *got) return got;
    const auto now = std::chrono::steady_clock::now();
    if (now >= until) return std::optional<Message>();
    // Poll at once while messages flow, then back off to kMaxPause when the line is quiet.
    // A message sent from this rank meanwhile (a report, a launch) starts the quick polls
    // again, for its answer: otherwise two ranks that wait for each other's answers would
    // each be deep in its back-off when the answer comes.
    if (sends_ != sends_seen) {
      sends_seen = sends_;
      since = now;
      pause = kFirstPause;
    }
    if (now - since < kPollAtOnce) {
      lock.unlock();
      std::this_thread::yield();
      lock.lock();
      continue;
    }
    sent_.wait_for(lock, std::min<std::chrono::nanoseconds>(pause, until - now),
                   [&] { return !to_self_.empty() || sends_ != sends_seen; });
    pause = std::min(kMaxPause, pause * 2);
  }
}

}  // namespace mrlocal
