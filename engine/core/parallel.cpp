#include "core/parallel.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>

#include "core/cancellation.h"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace fusescope {

namespace {

int defaultThreads() {
    if (const char* omp = std::getenv("OMP_NUM_THREADS"))
        if (int n = std::atoi(omp); n > 0) return n;
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

#ifdef _OPENMP
std::atomic<int> threads{defaultThreads()};
#else
std::atomic<int> threads{1};  // built without OpenMP: every kernel on its caller's thread
#endif

}  // namespace

int parallelThreads() { return threads.load(); }

void setParallelThreads(int count) {
#ifdef _OPENMP
    threads.store(std::max(1, count));
#else
    (void)count;
#endif
}

void parallelFor(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn) {
    if (n <= 0) return;
    const int64_t chunks = std::min<int64_t>(parallelThreads(), std::max<int64_t>(1, n / std::max<int64_t>(1, grain)));
#ifdef _OPENMP
    if (chunks > 1 && !omp_in_parallel()) {
        const int64_t size = (n + chunks - 1) / chunks;
        const std::atomic<bool>& cancel = ThreadCurrent<const std::atomic<bool>>::get();
        std::atomic<bool> failed{false};
        std::exception_ptr error;
        std::mutex errorMutex;
#pragma omp parallel num_threads(static_cast<int>(chunks))
        {
            CancellationScope scope(cancel);
            // The runtime may give fewer threads than asked: each takes every team-size'th chunk.
            for (int64_t c = omp_get_thread_num(); c < chunks && !failed.load(); c += omp_get_num_threads()) {
                try {
                    fn(c * size, std::min(n, (c + 1) * size));
                } catch (...) {
                    std::lock_guard lock(errorMutex);
                    if (!error) error = std::current_exception();
                    failed.store(true);
                }
            }
        }
        if (error) std::rethrow_exception(error);
        return;
    }
#endif
    fn(0, n);
}

}  // namespace fusescope
