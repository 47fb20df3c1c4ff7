// A script run as `fusescope-cli run SCRIPT --backend aot_eager` runs it: parsed, interpreted,
// its compiled functions captured (guards, graph breaks, recompiles), decomposed by AOT
// autograd and run eagerly (no C++ is generated: the JIT is not linked). Every run ends:
// past 10^3 statements and comprehension items (Interpreter::setStepBudget), 256 KiB of
// live tensors (setAllocationBudget) or 3 s (a cancel, as Ctrl+C) the script fails with its
// error. The budgets are small because bigger ones only repeat the same code over more
// elements and iterations, under the sanitizers: 10^4 steps and 64 MiB ran ~45 inputs/s,
// these ~230/s. A script error (Error, with its line) is the interpreter's answer to a bad
// script; anything else that escapes, a crash, a sanitizer report or a hang is a defect.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <new>
#include <string>
#include <thread>

#include "core/allocator.h"
#include "core/error.h"
#include "session/script_session.h"

// Allocations the sanitizer's allocator cannot make fail as malloc fails, and none of 256 MiB
// or more is attempted: a script's `list(range(10**7))` meets MemoryError, as it does in a
// plain build out of memory.
extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1:max_allocation_size_mb=256"; }

// ASan's operator new reports "out of memory" and dies where a failing allocation must throw
// std::bad_alloc (the interpreter's MemoryError), so this harness replaces the plain forms
// (ASan's are weak) with malloc and free: ASan still checks every access to that memory,
// only its new-versus-free mismatch check is given up here (in this harness and its corpus
// replay; every other `make asan` test keeps it).
void* operator new(std::size_t size) {
    if (void* p = std::malloc(size ? size : 1)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return ::operator new(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return std::malloc(size ? size : 1); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return std::malloc(size ? size : 1); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace {

// Cancels the session after `limit`, unless the run ended first.
class Deadline {
public:
    Deadline(fusescope::ScriptSession& session, std::chrono::milliseconds limit)
        : thread_([this, &session, limit] {
              std::unique_lock lock(mutex_);
              if (!wake_.wait_for(lock, limit, [this] { return done_; })) session.cancel();
          }) {}
    ~Deadline() {
        {
            std::lock_guard lock(mutex_);
            done_ = true;
        }
        wake_.notify_one();
        thread_.join();
    }

private:
    std::mutex mutex_;
    std::condition_variable wake_;
    bool done_ = false;
    std::thread thread_;  // last: starts once the members it uses exist
};

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    setenv("OMP_NUM_THREADS", "1", 0);  // before OpenMP starts: idle threads spinning only slow each run
    fusescope::setAllocationBudget(std::size_t(256) << 10);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    fusescope::SessionOptions options;
    options.backendOverride = "aot_eager";
    options.stepBudget = 1000;
    fusescope::ScriptSession session(options);
    Deadline deadline(session, std::chrono::milliseconds(3000));
    try {
        session.run(std::string(reinterpret_cast<const char*>(data), size), "fuzz.py");
    } catch (const fusescope::Error&) {
    }
    return 0;
}
