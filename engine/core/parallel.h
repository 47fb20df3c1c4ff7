#pragma once
// Eager kernels split across threads, as ATen's at::parallel_for: [0, n) in chunks of at least
// `grain` items, run by the calling thread and a pool of workers kept for the process. Each
// chunk must write only its own part of the output and compute it as the whole loop would,
// so that results do not depend on the number of threads. A call made inside a chunk, or
// while another thread's call holds the pool (two sessions of one `serve`), runs on its own
// thread alone. The first exception of a chunk is rethrown on the calling thread once every
// chunk has ended; workers see the caller's cancel flag.

#include <cstdint>
#include <functional>

namespace fusescope {

// Items per chunk below which splitting costs more than it saves (ATen's GRAIN_SIZE).
inline constexpr int64_t kParallelGrain = 32768;

// torch.get_num_threads(): the threads a kernel may use; OMP_NUM_THREADS, else the machine's cores.
int parallelThreads();
void setParallelThreads(int threads);  // torch.set_num_threads (at least 1)

void parallelFor(int64_t n, int64_t grain, const std::function<void(int64_t begin, int64_t end)>& fn);

}  // namespace fusescope
