#pragma once
// Generators: a generator function's body, or a generator expression's loop, run lazily on a
// fiber of its own (core/fiber.h), as CPython runs a generator's frame. The interpreter is
// one tree walk on one thread: a resume switches to the generator's stack with the
// generator's frame on top of the interpreter's, a yield switches back without it
// (script/generators.cpp).

#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/fiber.h"
#include "script/interpreter.h"

namespace fusescope {

struct GeneratorObject : Object {
    enum class State { Created, Suspended, Running, Finished };
    State state = State::Created;
    std::string name, qualname;  // its function's; "<genexpr>" for an expression
    Interpreter* interpreter = nullptr;  // null once the interpreter has closed it for good
    ObjectPtr function;                  // held: its frame names it (null for an expression)
    std::function<Value()> body;         // runs the statements; returns what `return` gave

    // Where it stands while suspended: its frame, its innermost scope (a comprehension's
    // inside an expression), globals, call site, and the exceptions its except blocks handle.
    Frame frame;
    ScopePtr scope, globals;
    CallSite site;
    std::vector<std::exception_ptr> handling;
    size_t handlingBase = 0;  // while running: where its part of the interpreter's starts

    std::unique_ptr<Fiber> fiber;
    Value transfer;               // sent in by a resume, or yielded out by the body
    std::exception_ptr thrownIn;  // raised at the yield it resumes from (throw(), close())
    Value returned;               // what `return` gave, once finished
    bool unwinding = false;       // closed after ignoring GeneratorExit: every yield raises

    std::string typeName() const override { return "generator"; }
    std::string reprText() const;
    const TypeSlots* slots() const override;
    ~GeneratorObject() override;  // a suspended generator is closed, as CPython's are
};

}  // namespace fusescope
