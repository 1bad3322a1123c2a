// Must not compile: the data plane never sees the control plane (built by the
// Layering.engine_sees_no_sched test, which expects the include to be missing).
#include "sched/core/controller.h"
