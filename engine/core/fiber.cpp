#include "core/fiber.h"

#include <cxxabi.h>
#include <sys/mman.h>
#include <ucontext.h>

#include <cstdint>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define FUSESCOPE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FUSESCOPE_ASAN 1
#endif
#endif
#ifdef FUSESCOPE_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace fusescope {

namespace {

// Reserved per fiber; only the pages a body touches are committed (MAP_NORESERVE). As deep as
// a thread's default stack, so a generator's body recurses as deep as any script code.
constexpr size_t kStackSize = size_t{8} << 20;
constexpr size_t kGuardSize = size_t{64} << 10;  // unmapped-access pages below the stack
constexpr size_t kPooledStacks = 16;  // finished fibers' stacks kept for the next ones

struct StackPool {
    std::vector<void*> free;
    ~StackPool() {
        for (void* s : free) munmap(s, kStackSize);
    }
};
thread_local StackPool stackPool;

void* takeStack() {
    if (!stackPool.free.empty()) {
        void* s = stackPool.free.back();
        stackPool.free.pop_back();
        return s;
    }
    void* s = mmap(nullptr, kStackSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (s == MAP_FAILED) throw std::bad_alloc();
    mprotect(s, kGuardSize, PROT_NONE);
    return s;
}

void giveBackStack(void* s) {
#ifdef FUSESCOPE_ASAN
    // The frames a finished body left behind stay poisoned in the shadow memory.
    ASAN_UNPOISON_MEMORY_REGION(static_cast<char*>(s) + kGuardSize, kStackSize - kGuardSize);
#endif
    if (stackPool.free.size() < kPooledStacks) stackPool.free.push_back(s);
    else munmap(s, kStackSize);
}

// The C++ runtime's per-thread exception state (__cxa_eh_globals in libsupc++ and
// libc++abi): the exceptions being handled and the count in flight. Each stack keeps its
// own, as a thread would, so a switch made inside a catch block cannot tangle them.
struct EhGlobals {
    void* caught = nullptr;
    unsigned int uncaught = 0;
};
EhGlobals& ehGlobals() { return *reinterpret_cast<EhGlobals*>(abi::__cxa_get_globals()); }

}  // namespace

struct Fiber::Context {
    ucontext_t registers{};
    EhGlobals eh;
    void* stack = nullptr;  // the fiber's own mapping (null for the resumer's side)
    // For AddressSanitizer: the stack this side runs on and its fake stack while switched away.
    const void* stackBottom = nullptr;
    size_t stackSize = 0;
    void* fakeStack = nullptr;
};

Fiber::Fiber(std::function<void()> body)
    : body_(std::move(body)), own_(std::make_unique<Context>()), caller_(std::make_unique<Context>()) {}

// Suspended inside its body, the objects on its stack cannot be destroyed from here: the
// stack stays mapped (the owner's contract is to finish the body first).
Fiber::~Fiber() = default;

void Fiber::entry(unsigned low, unsigned high) {
    auto* self = reinterpret_cast<Fiber*>((static_cast<uintptr_t>(high) << 32) | low);
#ifdef FUSESCOPE_ASAN
    __sanitizer_finish_switch_fiber(nullptr, &self->caller_->stackBottom, &self->caller_->stackSize);
#endif
    try {
        self->body_();
    } catch (...) {
        self->error_ = std::current_exception();
    }
    self->finished_ = true;
    self->switchTo(*self->own_, *self->caller_, /*finishing=*/true);
}

void Fiber::switchTo(Context& from, Context& to, bool finishing) {
    EhGlobals& eh = ehGlobals();
    from.eh = eh;
    eh = to.eh;
#ifdef FUSESCOPE_ASAN
    __sanitizer_start_switch_fiber(finishing ? nullptr : &from.fakeStack, to.stackBottom, to.stackSize);
#else
    (void)finishing;
#endif
    swapcontext(&from.registers, &to.registers);
#ifdef FUSESCOPE_ASAN
    // Back on `from`: the stack that switched here is `to`'s (a resumer's may differ each time).
    __sanitizer_finish_switch_fiber(from.fakeStack, &to.stackBottom, &to.stackSize);
#endif
}

void Fiber::resume() {
    if (finished_ || running_) throw std::logic_error("Fiber::resume: the fiber is " + std::string(finished_ ? "finished" : "running"));
    if (!started_) {
        own_->stack = takeStack();
        getcontext(&own_->registers);
        own_->registers.uc_stack.ss_sp = static_cast<char*>(own_->stack) + kGuardSize;
        own_->registers.uc_stack.ss_size = kStackSize - kGuardSize;
        own_->registers.uc_link = nullptr;
        own_->stackBottom = own_->registers.uc_stack.ss_sp;
        own_->stackSize = own_->registers.uc_stack.ss_size;
        auto address = reinterpret_cast<uintptr_t>(this);
        makecontext(&own_->registers, reinterpret_cast<void (*)()>(&Fiber::entry), 2, static_cast<unsigned>(address & 0xffffffffu),
                    static_cast<unsigned>(address >> 32));
        started_ = true;
    }
    running_ = true;
    switchTo(*caller_, *own_, false);
    running_ = false;
    if (finished_) {
        giveBackStack(std::exchange(own_->stack, nullptr));
        body_ = nullptr;  // what it captured goes now, not with the fiber
        if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
    }
}

void Fiber::suspend() {
    if (!running_) throw std::logic_error("Fiber::suspend: not inside the fiber");
    switchTo(*own_, *caller_, false);
}

}  // namespace fusescope
