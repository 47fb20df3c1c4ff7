#pragma once
// A per-thread current object installed for a scope: what a session hands the thread that
// runs its script (its devices, its random generator, its trace sinks, its cancel flag), so
// two sessions in one process (serve, minify) never share them. Code outside any session
// gets its thread's own default object.

#include <utility>

namespace fusescope {

template <class T>
class ThreadCurrent {
public:
    // The object installed on this thread, or the thread's default when none is.
    static T& get() { return current_ ? *current_ : outsideAnySession(); }
    static bool installed() { return current_ != nullptr; }

    // Makes `value` the current thread's for the scope's lifetime.
    class Scope {
    public:
        explicit Scope(T& value) : previous_(std::exchange(current_, &value)) {}
        ~Scope() { current_ = previous_; }
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;

    private:
        T* previous_;
    };

private:
    static T& outsideAnySession() {
        thread_local T value{};
        return value;
    }
    static inline thread_local T* current_ = nullptr;
};

}  // namespace fusescope
