// Allocator settings for the engine's memory pattern.
#pragma once

namespace mrlocal {

// Tells mimalloc (when it serves this process) to keep freed memory instead of returning
// it to the OS within the run (it goes back at exit). Tasks allocate and free hundreds of
// MB of tables each; with mimalloc's default 25 ms delay every task faulted its memory in
// again, and concurrent page faults serialise in the kernel. Measured on the 20-job
// fidelity workload (tools/bench/bench_fidelity.sh, 2 cores): TWJCT 197-347 s over 5 runs
// before, 184-210 s over 3 runs after. MIMALLOC_DECOMMIT_DELAY in the environment wins.
void TuneAllocator();

}  // namespace mrlocal
