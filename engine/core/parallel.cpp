#include "core/parallel.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "core/cancellation.h"

namespace fusescope {

namespace {

int defaultThreads() {
    if (const char* omp = std::getenv("OMP_NUM_THREADS"))
        if (int n = std::atoi(omp); n > 0) return n;
    return std::max(1u, std::thread::hardware_concurrency());
}

std::atomic<int> threads{defaultThreads()};
thread_local bool inChunk = false;  // a parallelFor inside a chunk runs serially

struct Job {
    Job(const std::function<void(int64_t, int64_t)>& fn, int64_t n, int64_t chunks, const std::atomic<bool>& cancel)
        : fn(fn), n(n), chunkSize((n + chunks - 1) / chunks), chunks(chunks), cancel(cancel) {}

    const std::function<void(int64_t, int64_t)>& fn;
    int64_t n, chunkSize, chunks;
    const std::atomic<bool>& cancel;  // the caller's cancel flag
    std::atomic<int64_t> next{0};
    std::atomic<bool> failed{false};  // the chunks taken after a failure are skipped
    std::mutex mutex;
    std::condition_variable ended;
    int64_t finished = 0;  // chunks done, under mutex
    std::exception_ptr error;

    // Takes chunks until none is left; returns once this thread has no chunk running.
    void work() {
        CancellationScope scope(cancel);
        inChunk = true;
        for (int64_t c; (c = next.fetch_add(1)) < chunks;) {
            std::exception_ptr thrown;
            try {
                if (!failed.load()) fn(c * chunkSize, std::min(n, (c + 1) * chunkSize));
            } catch (...) {
                thrown = std::current_exception();
                failed.store(true);
            }
            std::lock_guard lock(mutex);
            if (thrown && !error) error = thrown;
            ++finished;
            ended.notify_all();
        }
        inChunk = false;
    }
};

// Workers wait for a job, work on it, and wait again; never destroyed (they outlive any
// static that a kernel at exit might still use).
class Pool {
public:
    static Pool& instance() {
        static Pool* pool = new Pool;
        return *pool;
    }

    // Runs `job` with up to `helpers` workers beside the caller; false when another job holds the pool.
    bool run(Job& job, int helpers) {
        std::unique_lock busy(busy_, std::try_to_lock);
        if (!busy) return false;
        {
            std::lock_guard lock(mutex_);
            while (static_cast<int>(workers_.size()) < helpers) workers_.emplace_back([this] { loop(); }).detach();
            job_ = &job;
            ++generation_;
            wanted_ = helpers;
        }
        wake_.notify_all();
        job.work();
        {
            std::unique_lock lock(job.mutex);  // every chunk has ended
            job.ended.wait(lock, [&] { return job.finished == job.chunks; });
        }
        std::unique_lock lock(mutex_);  // and no worker still holds the job
        job_ = nullptr;
        left_.wait(lock, [&] { return active_ == 0; });
        return true;
    }

private:
    void loop() {
        uint64_t seen = 0;
        std::unique_lock lock(mutex_);
        for (;;) {
            wake_.wait(lock, [&] { return job_ && generation_ != seen && wanted_ > 0; });
            seen = generation_;
            --wanted_;
            Job* job = job_;
            ++active_;
            lock.unlock();
            job->work();
            lock.lock();
            if (--active_ == 0) left_.notify_all();
        }
    }

    std::mutex busy_;  // held by the caller whose job the pool runs
    std::mutex mutex_;
    std::condition_variable wake_, left_;
    std::vector<std::thread> workers_;
    Job* job_ = nullptr;
    uint64_t generation_ = 0;
    int wanted_ = 0;  // workers still to join the current job
    int active_ = 0;  // workers inside a job's work()
};

}  // namespace

int parallelThreads() { return threads.load(); }

void setParallelThreads(int count) { threads.store(std::max(1, count)); }

void parallelFor(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn) {
    if (n <= 0) return;
    const int64_t most = std::max<int64_t>(1, n / std::max<int64_t>(1, grain));
    const int64_t chunks = std::min<int64_t>(parallelThreads(), most);
    if (chunks <= 1 || inChunk) return fn(0, n);
    Job job(fn, n, chunks, ThreadCurrent<const std::atomic<bool>>::get());
    if (!Pool::instance().run(job, static_cast<int>(chunks) - 1)) return fn(0, n);
    if (job.error) std::rethrow_exception(job.error);
}

}  // namespace fusescope
