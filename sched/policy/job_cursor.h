// Looks jobs up for ids that mostly ascend (ClusterState::active and ::reducing are in
// arrival order, so in id order): a step or two along std::map's in-order successors
// instead of a find() of log2(n) dependent cache misses per job. Any other order falls
// back to find(). For policies that pass over every active job per decision (fair,
// dynprio, capacity).
#pragma once

#include <map>

#include "sched/core/job.h"

namespace mrlocal {

class JobCursor {
 public:
  explicit JobCursor(const std::map<JobId, JobState>& jobs) : jobs_(jobs), it_(jobs.begin()) {}
  const JobState& operator[](JobId id) {
    for (int step = 0; step < 4 && it_ != jobs_.end() && it_->first < id; ++step) ++it_;
    if (it_ == jobs_.end() || it_->first != id) it_ = jobs_.find(id);
    return it_->second;
  }

 private:
  const std::map<JobId, JobState>& jobs_;
  std::map<JobId, JobState>::const_iterator it_;
};

}  // namespace mrlocal
