#pragma once
// A function run on a stack of its own, on the thread that resumes it: it runs until it
// suspends itself, and continues where it stopped at the next resume (script generators,
// script/generator.h). Everything thread-local stays valid inside it, since the thread is
// the same one. An exception out of the function is kept and rethrown by the resume that
// ran it: exceptions never cross from one stack to the other.

#include <cstddef>
#include <exception>
#include <functional>
#include <memory>

namespace fusescope {

class Fiber {
public:
    explicit Fiber(std::function<void()> body);
    // A fiber must not be destroyed while suspended inside its body (its stack holds live
    // objects): the owner makes the body return first (a generator's close()).
    ~Fiber();
    Fiber(const Fiber&) = delete;
    Fiber& operator=(const Fiber&) = delete;

    // Runs the body until it suspends or returns; rethrows what the body threw.
    void resume();
    // From inside the body: back to the resume that ran it.
    void suspend();
    bool started() const { return started_; }
    bool finished() const { return finished_; }
    bool running() const { return running_; }

    struct Context;  // the saved registers and stack of one side (fiber.cpp)

private:
    static void entry(unsigned low, unsigned high);
    void switchTo(Context& from, Context& to, bool finishing);

    std::function<void()> body_;
    std::unique_ptr<Context> own_, caller_;
    std::exception_ptr error_;
    bool started_ = false, finished_ = false, running_ = false;
};

}  // namespace fusescope
