// Must not compile: apps use engine's app API (status.h, task_context.h), not its block store.
#include "engine/task_context.h"
#include "engine/block_store.h"
