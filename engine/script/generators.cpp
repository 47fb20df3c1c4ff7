// Generators (script/generator.h): made by calling a generator function or evaluating a
// generator expression, run a step at a time on their own fiber. A resume pushes the
// generator's frame and switches to its fiber; a yield saves the frame and switches back.
// What the frame holds besides its statements (scope, globals, the exceptions its except
// blocks are handling) is moved out at a yield and back at the resume, so the resumer's
// state is as it left it.
#include <cstdio>

#include <fmt/format.h>

#include "script/generator.h"
#include "script/object_model.h"

namespace fusescope {

namespace {

// Raised at every yield of a generator being closed for good (it ignored GeneratorExit, or
// its interpreter is going): not a Python exception, so no except clause stops it.
struct GeneratorUnwind {};

}  // namespace

std::string GeneratorObject::reprText() const {
    return fmt::format("<generator object {} at {}>", qualname, static_cast<const void*>(this));
}

GeneratorObject::~GeneratorObject() {
    if (state != State::Suspended || !interpreter) return;
    try {
        interpreter->closeGenerator(*this);
    } catch (const ScriptError& e) {  // as CPython reports an error it cannot raise anywhere
        std::fprintf(stderr, "Exception ignored in: %s\n%s: %s\n", reprText().c_str(), e.kind().c_str(), e.what());
    } catch (...) {
    }
}

Value Interpreter::makeGenerator(Frame frame, ScopePtr scope, ScopePtr globals, std::function<Value()> body, ObjectPtr function) {
    auto gen = std::make_shared<GeneratorObject>();
    gen->name = frame.function;
    gen->qualname = frame.qualname;
    gen->interpreter = this;
    gen->function = std::move(function);
    gen->body = std::move(body);
    gen->frame = std::move(frame);
    gen->scope = std::move(scope);
    gen->globals = std::move(globals);
    if (generators_.size() >= 1024 && (generators_.size() & (generators_.size() - 1)) == 0)
        std::erase_if(generators_, [](const auto& weak) { return weak.expired(); });
    generators_.push_back(gen);
    return Value(ObjectPtr(gen));
}

void Interpreter::enterGenerator(GeneratorObject& gen) {
    // Resumed inside a compiled function, its frame is traced as one the function calls.
    gen.frame.traced = tracer_ != nullptr;
    gen.frame.inlineDepth = gen.frame.traced && !stack_.empty() ? stack_.back().inlineDepth + 1 : 0;
    stack_.push_back(gen.frame);
    current_ = gen.scope;
    globals_ = gen.globals;
    site_ = gen.site;
    gen.handlingBase = handling_.size();
    handling_.insert(handling_.end(), gen.handling.begin(), gen.handling.end());
    gen.handling.clear();
}

void Interpreter::leaveGenerator(GeneratorObject& gen) {
    gen.frame = std::move(stack_.back());
    stack_.pop_back();
    gen.scope = current_;
    gen.globals = globals_;
    gen.site = site_;
    gen.handling.assign(handling_.begin() + static_cast<std::ptrdiff_t>(gen.handlingBase), handling_.end());
    handling_.resize(gen.handlingBase);
}

void Interpreter::runGeneratorBody(GeneratorObject& gen) {
    enterGenerator(gen);
    struct Leave {  // its frame is on top again whichever way the body ends
        Interpreter& in;
        ~Leave() { in.stack_.pop_back(); }
    } leave{*this};
    try {
        gen.returned = gen.body();
    } catch (const ScriptError& e) {
        // PEP 479: a StopIteration escaping the body would end the caller's loop silently.
        if (!matchesException(e, "StopIteration")) throw;
        Value cause = exceptionValue(e);
        try {
            raise("RuntimeError", {Value("generator raised StopIteration")});
        } catch (RaisedException& error) {
            error.exception().as<InstanceObject>()->dict->set(Value("__cause__"), cause);
            throw;
        }
    }
}

void Interpreter::finishGenerator(GeneratorObject& gen) {
    gen.state = GeneratorObject::State::Finished;
    gen.fiber.reset();
    gen.body = nullptr;
    gen.scope = gen.globals = nullptr;
    gen.frame.self = Value();
}

std::optional<Value> Interpreter::resumeGenerator(GeneratorObject& gen, Value sent, std::exception_ptr thrown) {
    using State = GeneratorObject::State;
    switch (gen.state) {
        case State::Running: fail("ValueError", "generator already executing");
        case State::Finished:
            if (thrown) std::rethrow_exception(thrown);
            return std::nullopt;
        case State::Created:
            if (thrown) {
                finishGenerator(gen);
                std::rethrow_exception(thrown);
            }
            if (!sent.isNone()) fail("TypeError", "can't send non-None value to a just-started generator");
            gen.fiber = std::make_unique<Fiber>([this, &gen] { runGeneratorBody(gen); });
            break;
        case State::Suspended: break;
    }
    struct Restore {
        Interpreter& in;
        ScopePtr current, globals;
        CallSite site;
        GeneratorObject* running;
        ~Restore() {
            in.current_ = std::move(current);
            in.globals_ = std::move(globals);
            in.site_ = std::move(site);
            in.runningGenerator_ = running;
        }
    } restore{*this, current_, globals_, site_, runningGenerator_};
    gen.transfer = std::move(sent);
    gen.thrownIn = std::move(thrown);
    gen.state = State::Running;
    runningGenerator_ = &gen;
    try {
        gen.fiber->resume();
    } catch (...) {
        finishGenerator(gen);
        throw;
    }
    if (gen.fiber->finished()) {
        finishGenerator(gen);
        return std::nullopt;
    }
    gen.state = State::Suspended;
    return std::exchange(gen.transfer, Value());
}

Value Interpreter::yieldValue(Value value) {
    GeneratorObject& gen = *runningGenerator_;
    if (gen.unwinding) throw GeneratorUnwind{};
    gen.transfer = std::move(value);
    leaveGenerator(gen);
    gen.fiber->suspend();
    enterGenerator(gen);
    if (gen.thrownIn) std::rethrow_exception(std::exchange(gen.thrownIn, nullptr));
    return std::exchange(gen.transfer, Value());
}

Value Interpreter::yieldFrom(const Value& iterable) {
    auto* inner = iterable.as<GeneratorObject>();
    if (!inner) {  // any other iterable: its items, one yield each (what is sent in is dropped)
        forEachItem(iterable, [&](const Value& item) {
            yieldValue(item);
            return true;
        });
        return Value();
    }
    // PEP 380: what is sent or thrown in goes on to the inner generator; its return value is
    // the expression's.
    Value sent;
    std::exception_ptr thrown;
    while (true) {
        std::optional<Value> item = resumeGenerator(*inner, std::move(sent), std::exchange(thrown, nullptr));
        if (!item) return inner->returned;
        sent = Value();
        try {
            sent = yieldValue(std::move(*item));
        } catch (const ScriptError& e) {
            if (matchesException(e, "GeneratorExit")) {
                closeGenerator(*inner);
                throw;
            }
            thrown = std::current_exception();
        }
    }
}

void Interpreter::closeGenerator(GeneratorObject& gen) {
    using State = GeneratorObject::State;
    if (gen.state == State::Created) finishGenerator(gen);
    if (gen.state != State::Suspended) return;
    std::exception_ptr exit;
    try {
        raise("GeneratorExit", {});
    } catch (...) {
        exit = std::current_exception();
    }
    try {
        if (resumeGenerator(gen, Value(), exit)) {  // it yielded again: unwound for good
            gen.unwinding = true;
            try {
                resumeGenerator(gen, Value(), std::make_exception_ptr(GeneratorUnwind{}));
            } catch (...) {
            }
            fail("RuntimeError", "generator ignored GeneratorExit");
        }
    } catch (const ScriptError& e) {
        if (!matchesException(e, "GeneratorExit") && !matchesException(e, "StopIteration")) throw;
    }
}

void Interpreter::closeGenerators() {
    // A finally block run here may make and suspend another generator: rounds until none is
    // left (bounded: past them, a generator is let go of unclosed, its stack not unwound).
    for (int round = 0; round < 8 && !generators_.empty(); ++round) {
        for (const auto& weak : std::exchange(generators_, {})) {
            std::shared_ptr<GeneratorObject> gen = weak.lock();
            if (!gen) continue;
            if (round < 7) {
                try {
                    closeGenerator(*gen);
                } catch (...) {  // the run is over: nowhere left to raise it
                }
            }
            gen->interpreter = nullptr;
            if (gen->state != GeneratorObject::State::Suspended) finishGenerator(*gen);  // what it holds may hold it
            gen->function = nullptr;
        }
    }
}

}  // namespace fusescope
