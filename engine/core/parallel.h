#pragma once
// Eager kernels split across threads, as ATen's at::parallel_for: [0, n) in chunks of at least
// `grain` items, each run by a thread of an OpenMP team. The team comes from the process's
// one OpenMP runtime, the one oneDNN's kernels and the JIT's generated code use (libomp,
// whose GOMP entry points serve GCC's code): no second pool spins beside theirs. Each chunk
// must write only its own part of the output and compute it as the whole loop would, so that
// results do not depend on the number of threads. A call inside a parallel region runs on
// its thread alone. The first exception of a chunk is rethrown on the calling thread once
// every chunk has ended; the team sees the caller's cancel flag. Built without OpenMP, every
// call runs on its caller's thread.

#include <cstdint>
#include <functional>

namespace fusescope {

// Items per chunk below which splitting costs more than it saves (ATen's GRAIN_SIZE).
inline constexpr int64_t kParallelGrain = 32768;

// torch.get_num_threads(): the threads a kernel may use; OMP_NUM_THREADS, else the machine's
// cores (1 without OpenMP).
int parallelThreads();
void setParallelThreads(int threads);  // torch.set_num_threads (at least 1)

void parallelFor(int64_t n, int64_t grain, const std::function<void(int64_t begin, int64_t end)>& fn);

}  // namespace fusescope
