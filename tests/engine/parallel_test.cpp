// Eager kernels split across threads (core/parallel.h): every item once, errors and cancels
// reach the caller, and the kernels give the same bits with any number of threads.
#include <atomic>
#include <mutex>
#include <vector>

#include <gtest/gtest.h>

#include "core/cancellation.h"
#include "core/parallel.h"
#include "test_support.h"

namespace fusescope {
namespace {

// Sets the thread count for a test and restores it after.
struct ScopedThreads {
    int saved = parallelThreads();
    explicit ScopedThreads(int threads) { setParallelThreads(threads); }
    ~ScopedThreads() { setParallelThreads(saved); }
};

TEST(ParallelFor, EveryItemRunsOnceInChunksOfAtLeastTheGrain) {
    ScopedThreads four(4);
    const std::size_t threads = static_cast<std::size_t>(parallelThreads());  // 1 where built without OpenMP
    for (int64_t n : {1, 7, 100, 1000, 100001}) {
        std::vector<std::atomic<int>> seen(static_cast<std::size_t>(n));
        std::mutex mutex;
        std::vector<int64_t> chunkSizes;
        parallelFor(n, 100, [&](int64_t begin, int64_t end) {
            for (int64_t i = begin; i < end; ++i) seen[static_cast<std::size_t>(i)]++;
            std::lock_guard lock(mutex);
            chunkSizes.push_back(end - begin);
        });
        for (int64_t i = 0; i < n; ++i) ASSERT_EQ(seen[static_cast<std::size_t>(i)].load(), 1) << "n " << n << " item " << i;
        EXPECT_LE(chunkSizes.size(), threads) << n;
        if (n >= 400) EXPECT_EQ(chunkSizes.size(), threads) << n;
        if (n < 200) EXPECT_EQ(chunkSizes.size(), 1u) << n;  // less than two grains: on the caller alone
    }
}

TEST(ParallelFor, OneThreadRunsTheWholeRangeOnTheCaller) {
    ScopedThreads one(1);
    int calls = 0;
    parallelFor(1 << 20, 1, [&](int64_t begin, int64_t end) {
        ++calls;
        EXPECT_EQ(begin, 0);
        EXPECT_EQ(end, 1 << 20);
    });
    EXPECT_EQ(calls, 1);
}

TEST(ParallelFor, AChunksExceptionReachesTheCallerAfterEveryChunkEnded) {
    ScopedThreads four(4);
    std::atomic<int> ended{0};
    EXPECT_THROW(parallelFor(4000, 1000,
                             [&](int64_t begin, int64_t end) {
                                 if (begin <= 1000 && 1000 < end) throw ScriptError("RuntimeError", "the chunk of item 1000 failed");
                                 ++ended;
                             }),
                 ScriptError);
    EXPECT_LE(ended.load(), 3);
    // The pool is usable again afterwards.
    std::atomic<int64_t> sum{0};
    parallelFor(4000, 1000, [&](int64_t begin, int64_t end) { sum += end - begin; });
    EXPECT_EQ(sum.load(), 4000);
}

TEST(ParallelFor, ACallInsideAChunkRunsOnItsThreadAlone) {
    ScopedThreads four(4);
    std::atomic<int> innerCalls{0};
    parallelFor(4, 1, [&](int64_t, int64_t) { parallelFor(4000, 1, [&](int64_t, int64_t) { ++innerCalls; }); });
    EXPECT_EQ(innerCalls.load(), 4);  // one whole-range call per outer chunk
}

TEST(ParallelFor, WorkersSeeTheCallersCancelFlag) {
    ScopedThreads four(4);
    const std::atomic<bool> cancelled{true};
    CancellationScope scope(cancelled);
    std::atomic<int> chunks{0}, interrupted{0};
    parallelFor(4, 1, [&](int64_t, int64_t) {
        ++chunks;
        try {
            throwIfCancelled();
        } catch (const ScriptError&) {
            ++interrupted;
        }
    });
    EXPECT_EQ(chunks.load(), parallelThreads() > 1 ? 4 : 1);
    EXPECT_EQ(interrupted.load(), chunks.load());
}

// Softmax, layer norm and a pointwise chain printed to every digit with 1 and 4 threads.
TEST(ParallelKernels, GiveTheSameBitsWithAnyNumberOfThreads) {
    const std::string script = R"(
import torch
torch.manual_seed(0)
x = torch.randn(300, 517)
w, b = torch.randn(517), torch.randn(517)
for t in [torch.softmax(x, -1), torch.log_softmax(x, 0), torch.nn.functional.layer_norm(x, (517,), w, b),
          (x * 2.0 + 1.0).relu() - x.exp()]:
    print(t.double().sum().item(), t.double().pow(2).sum().item(), t[123, 456].item())
print(torch.get_num_threads())
)";
    std::string outputs[2];
    int counts[2] = {};  // what torch.get_num_threads() must print: 1 and 4 (1 and 1 without OpenMP)
    for (int threads : {1, 4}) {
        ScopedThreads scoped(threads);
        test::ScriptRun run = test::runScript(script);
        ASSERT_EQ(run.error, "");
        outputs[threads == 4] = run.out;
        counts[threads == 4] = parallelThreads();
    }
    for (int i : {0, 1}) EXPECT_NE(outputs[i].find("\n" + std::to_string(counts[i]) + "\n"), std::string::npos) << outputs[i];
    EXPECT_EQ(outputs[0].substr(0, outputs[0].rfind('\n', outputs[0].size() - 2)),
              outputs[1].substr(0, outputs[1].rfind('\n', outputs[1].size() - 2)));
}

// An operand broadcast over some dims (a channel's scale, a row's bias, a column) reads, in
// chunks split anywhere, what its expanded contiguous copy holds.
TEST(ParallelKernels, BroadcastOperandsReadWhatTheirExpandedCopiesHold) {
    ScopedThreads four(4);
    test::ScriptRun run = test::runScript(R"(
import torch
torch.manual_seed(0)
x = torch.randn(3, 7, 97, 101)
for other in [torch.randn(1, 7, 1, 1), torch.randn(101), torch.randn(97, 1), torch.randn(7, 97, 1), torch.randn(3, 1, 1, 101)]:
    whole = other.expand_as(x).contiguous()
    print(torch.equal(x * other, x * whole), torch.equal(other - x, whole - x), torch.equal(torch.maximum(x, other), torch.maximum(x, whole)))
)");
    ASSERT_EQ(run.error, "");
    std::string allTrue;
    for (int row = 0; row < 5; ++row) allTrue += "True True True\n";
    EXPECT_EQ(run.out, allTrue);
}

}  // namespace
}  // namespace fusescope
