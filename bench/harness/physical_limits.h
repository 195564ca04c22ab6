#pragma once
// bench/SPEC.md L0: the machine's own limits, the reference the workloads are read
// against: the clock (a chain of dependent register adds, one per cycle) and
// the FP32 FMA peak (12 independent 512-bit accumulators per thread).
#include "harness.h"

namespace bench {

// Cases L0.clock (GHz, one thread) and L0.fma_peak (GFLOP/s at each thread count).
void physical_limits(const Options& o);

}  // namespace bench
