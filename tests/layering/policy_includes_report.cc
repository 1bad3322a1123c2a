// Must not compile: policies decide; what is reported about their decisions is not theirs.
#include "sched/core/policy.h"
#include "sched/report/run_recorder.h"
