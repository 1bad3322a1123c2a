// Hadoop 1's Fair Scheduler (FairScheduler; Zaharia et al., "Job Scheduling for
// Multi-User MapReduce Clusters", UCB/EECS-2009-55): max-min fair shares of slots among
// the running jobs, with map slots and reduce slots shared separately. When jobs name
// queues (JobSpec::queue; Hadoop's pools), two levels: fair shares among the queues, then
// among the jobs of the chosen queue.
//
// A free slot of kind k goes to the candidate (a queue, then a job of it) with a pending
// task of kind k that is furthest below its share, by Hadoop's FairShareComparator:
// running tasks of kind k / weight, lowest first, ties by arrival. A job's weight is
// JobSpec::weight; a queue's is 1.0, its running count sums its jobs', and its arrival is
// its earliest active job's. With one queue this is the one-level Fair Scheduler. Within
// the job: a data-local map first, else any; reduces through PickReduceFor.
//
// Not modelled: minimum shares, delay scheduling, and preemption (Hadoop's FS preemption
// is off by default, mapred.fairscheduler.preemption = false). Admits every job: it makes
// no deadline promise.
//
// Cost: one pass over the active (map) or reducing (reduce) jobs per decision, O(jobs),
// reading the running and pending counts the ClusterState keeps, so they cannot drift
// from the truth. Kept here: only what never changes about a job (queue, weight).
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "sched/core/policy.h"

namespace mrlocal {

// One instance per Controller: it knows jobs by id, and ids restart with each Controller.
class FairPolicy final : public Policy {
 public:
  std::string_view name() const override { return "fair"; }
  Admission Admit(const JobState& job, const ClusterState& state, Time now) override;
  std::optional<TaskRef> PickTask(const SlotInfo& slot, const ClusterState& state,
                                  Time now) override;
  void OnJobFinished(const JobState& job, const ClusterState& state, Time now) override;

 private:
  // A job with a pending task of the slot's kind.
  struct Candidate {
    uint32_t queue;  // index into tallies_
    double ratio;    // the job's running tasks of the slot's kind / weight
    JobId job;
    const JobState* state;
  };
  // Running tasks of one queue, summed in the current decision.
  struct QueueTally {
    uint64_t epoch = 0;    // the decision that last reset it
    uint32_t running = 0;  // / 1.0, a queue's weight
    JobId first = 0;       // its earliest active job: ties between queues
  };

  // What the policy needs of a job that never changes, kept compact so that a decision
  // reads only the running and pending counts from each JobState.
  struct JobInfo {
    bool known = false;
    uint32_t queue = 0;   // index into tallies_
    double weight = 1.0;  // > 0
  };
  const JobInfo& InfoOf(const JobState& job);

  std::unordered_map<std::string, uint32_t> queue_ids_;  // queue name -> dense index
  std::vector<JobInfo> jobs_;          // by JobId (dense: the Controller numbers them 1, 2, ...)
  std::vector<QueueTally> tallies_;    // by queue index
  std::vector<Candidate> candidates_;  // scratch, reused: no allocation per decision
  uint64_t epoch_ = 0;
};

}  // namespace mrlocal
