// torch.profiler as scripts use it (PyTorch's spelling): record_function annotations,
// ExecutionTraceObserver windows, and profile() with a step schedule, on_trace_ready and
// Chrome-trace export. The recording itself is engine/profile/.
#include <fstream>
#include <mutex>
#include <optional>

#include "profile/execution_trace_observer.h"
#include "profile/profile_schedule.h"
#include "profile/trace_args.h"
#include "profile/trace_export.h"
#include "script/interpreter.h"

namespace fusescope {

namespace {

struct ObserverObject : RecordObject {
    std::shared_ptr<ExecutionTraceObserver> observer = std::make_shared<ExecutionTraceObserver>();
};

struct ScheduleObject : RecordObject {
    ProfileSchedule schedule;
};

// Adds a method to an object's attributes; it receives the object it was read from.
template <class T>
void addMethod(const std::shared_ptr<T>& object, const std::string& qualified, const std::string& name,
               std::function<Value(Interpreter&, CallArgs&, const std::shared_ptr<T>&)> body) {
    auto method = std::make_shared<MethodObject>();
    method->name = qualified + "." + name;
    method->call = [body](Interpreter& in, CallArgs& a, const ObjectPtr& self) {
        return body(in, a, std::static_pointer_cast<T>(self));
    };
    object->attrs[name] = Value(ObjectPtr(method));
}

const std::string& pathArgument(Interpreter& in, const CallArgs& a, const std::string& function) {
    if (a.args.size() != 1 || !a.args[0].isString()) in.fail("TypeError", function + "() expects a file path");
    return a.args[0].asString();
}

Value recordFunction(Interpreter& in, CallArgs& a) {
    if (a.args.empty() || !a.args[0].isString()) in.fail("TypeError", "record_function() expects a name");
    std::string name = a.args[0].asString();
    std::string args = a.args.size() > 1 && a.args[1].isString() ? a.args[1].asString() : "";
    auto cm = std::make_shared<ContextManagerObject>();
    cm->name = "record_function";
    auto span = std::make_shared<std::unique_ptr<RecordScope>>();
    cm->enter = [name, args, span](Interpreter&) {
        *span = std::make_unique<RecordScope>(TraceCategory::UserAnnotation, name);
        if (TraceRecord* r = (*span)->record(); r && !args.empty()) appendTraceArg(r->inputs, IValue(args));
        return Value();
    };
    cm->exit = [span](Interpreter&) { span->reset(); };
    return Value(ObjectPtr(cm));
}

Value executionTraceObserver(Interpreter&, CallArgs&) {
    auto obj = std::make_shared<ObserverObject>();
    obj->type = "ExecutionTraceObserver";
    obj->text = "<torch.profiler.ExecutionTraceObserver>";
    obj->attrs["_execution_trace_running"] = Value(false);
    using Self = std::shared_ptr<ObserverObject>;
    // Each method acts on the observer, then refreshes _execution_trace_running.
    auto method = [&](const std::string& name, std::function<Value(Interpreter&, CallArgs&, ExecutionTraceObserver&)> body) {
        addMethod<ObserverObject>(obj, "ExecutionTraceObserver", name, [body](Interpreter& in, CallArgs& a, const Self& o) {
            Value result = body(in, a, *o->observer);
            o->attrs["_execution_trace_running"] = Value(o->observer->running());
            return result.isNone() ? result : Value(ObjectPtr(o));
        });
    };
    method("register_callback", [](Interpreter& in, CallArgs& a, ExecutionTraceObserver& et) {
        et.registerCallback(pathArgument(in, a, "register_callback"));
        return Value(true);  // returns the observer itself
    });
    method("start", [](Interpreter&, CallArgs&, ExecutionTraceObserver& et) { et.start(); return Value(); });
    method("stop", [](Interpreter&, CallArgs&, ExecutionTraceObserver& et) { et.stop(); return Value(); });
    method("unregister_callback", [](Interpreter&, CallArgs&, ExecutionTraceObserver& et) {
        et.unregisterCallback();
        return Value();
    });
    addMethod<ObserverObject>(obj, "ExecutionTraceObserver", "get_output_file_path",
                              [](Interpreter&, CallArgs&, const Self& o) { return Value(o->observer->outputFilePath()); });
    return Value(ObjectPtr(obj));
}

int64_t intKwarg(Interpreter& in, const CallArgs& a, const char* name, int64_t fallback) {
    const Value* v = a.kwarg(name);
    if (!v) return fallback;
    if (!v->isInt() || v->asInt() < 0) in.fail("ValueError", std::string("schedule(): ") + name + " must be a non-negative int");
    return v->asInt();
}

Value schedule(Interpreter& in, CallArgs& a) {
    if (!a.args.empty()) in.fail("TypeError", "schedule() takes keyword arguments: skip_first, wait, warmup, active, repeat");
    auto obj = std::make_shared<ScheduleObject>();
    obj->type = "function";
    obj->schedule = {intKwarg(in, a, "skip_first", 0), intKwarg(in, a, "wait", 0), intKwarg(in, a, "warmup", 0),
                     intKwarg(in, a, "active", 1), intKwarg(in, a, "repeat", 0)};
    if (obj->schedule.active == 0) in.fail("ValueError", "schedule(): active must be at least 1");
    obj->text = "<torch.profiler.schedule>";
    return Value(ObjectPtr(obj));
}

// The state of one torch.profiler.profile(): records while the schedule says so, hands each
// finished cycle to on_trace_ready, and keeps the last one for export_chrome_trace.
class ProfileRun : public TraceSink {
public:
    std::optional<ProfileSchedule> schedule;
    std::shared_ptr<ExecutionTraceObserver> observer;
    Value onTraceReady;

    ~ProfileRun() override { stopRecording(); }

    void onRecord(const TraceRecord& record) override {
        std::lock_guard lock(mutex_);
        current_.push_back(record);
    }
    void beginStep(int64_t step) {
        step_ = step;
        if (!records(action(step))) return stopRecording();
        if (!recording_) {
            recording_ = true;
            Profiler::attach(this);
            if (observer) observer->start();
        }
        stepSpan_ = std::make_unique<RecordScope>(TraceCategory::UserAnnotation, "ProfilerStep#" + std::to_string(step));
    }
    // Ends the current step; true when it finished a cycle (the caller runs on_trace_ready).
    bool endStep(bool exiting) {
        stepSpan_.reset();
        if (!recording_) return false;
        if (action(step_) != ProfilerAction::RecordAndSave && !exiting) return false;
        stopRecording();
        std::lock_guard lock(mutex_);
        saved_ = std::move(current_);
        current_.clear();
        return true;
    }
    int64_t step() const { return step_; }
    std::string chromeTrace() {
        std::lock_guard lock(mutex_);
        return chromeTraceText(saved_.empty() ? current_ : saved_);
    }

private:
    ProfilerAction action(int64_t step) const { return schedule ? schedule->at(step) : ProfilerAction::Record; }
    static bool records(ProfilerAction a) { return a == ProfilerAction::Record || a == ProfilerAction::RecordAndSave; }
    void stopRecording() {
        if (!recording_) return;
        stepSpan_.reset();
        Profiler::detach(this);
        recording_ = false;
        if (observer) observer->stop();
    }

    int64_t step_ = 0;
    bool recording_ = false;
    std::unique_ptr<RecordScope> stepSpan_;
    std::mutex mutex_;
    std::vector<TraceRecord> current_, saved_;
};

Value profile(Interpreter& in, CallArgs& a) {
    auto run = std::make_shared<ProfileRun>();
    auto obj = std::make_shared<ContextManagerObject>();
    obj->name = "profile";
    for (const auto& [key, value] : a.kwargs) {
        if (key == "schedule" && !value.isNone()) {
            auto* s = value.as<ScheduleObject>();
            if (!s) in.fail("TypeError", "profile(schedule=...) expects torch.profiler.schedule(...)");
            run->schedule = s->schedule;
        } else if (key == "execution_trace_observer" && !value.isNone()) {
            auto* o = value.as<ObserverObject>();
            if (!o) in.fail("TypeError", "profile(execution_trace_observer=...) expects an ExecutionTraceObserver");
            run->observer = o->observer;
        } else if (key == "on_trace_ready") {
            run->onTraceReady = value;
        } else if (key != "activities" && key != "record_shapes" && key != "profile_memory" && key != "with_stack" &&
                   key != "with_flops" && key != "with_modules" && key != "schedule" && key != "execution_trace_observer") {
            in.fail("TypeError", "profile() got an unexpected keyword argument '" + key + "'");
        }
    }
    obj->attrs["execution_trace_observer"] = a.kwarg("execution_trace_observer") ? *a.kwarg("execution_trace_observer") : Value();
    // The with statement holds the profile object while enter/exit run; they reach it weakly.
    std::weak_ptr<ContextManagerObject> self = obj;
    auto traceReady = [run](Interpreter& interp, const ObjectPtr& p) {
        if (run->onTraceReady.isNone()) return;
        CallArgs args;
        args.args.push_back(Value(p));
        interp.call(run->onTraceReady, args);
    };
    obj->enter = [run, self](Interpreter&) {
        run->beginStep(0);
        auto p = self.lock();
        return p ? Value(ObjectPtr(p)) : Value();
    };
    obj->exit = [run, self, traceReady](Interpreter& interp) {
        if (run->endStep(true))
            if (auto p = self.lock()) traceReady(interp, p);
    };
    addMethod<ContextManagerObject>(obj, "profile", "step", [run, traceReady](Interpreter& interp, CallArgs&, const auto& p) {
        if (run->endStep(false)) traceReady(interp, p);
        run->beginStep(run->step() + 1);
        return Value();
    });
    addMethod<ContextManagerObject>(obj, "profile", "export_chrome_trace", [run](Interpreter& interp, CallArgs& args, const auto&) {
        const std::string& path = pathArgument(interp, args, "export_chrome_trace");
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << run->chromeTrace();
        if (!out) interp.fail("RuntimeError", "export_chrome_trace: cannot write '" + path + "'");
        return Value();
    });
    return Value(ObjectPtr(obj));
}

}  // namespace

void populateProfilerModule(ModuleObject& profiler) {
    profiler.attrs["record_function"] = makeBuiltin("torch.profiler.record_function", recordFunction);
    profiler.attrs["ExecutionTraceObserver"] = makeBuiltin("torch.profiler.ExecutionTraceObserver", executionTraceObserver);
    profiler.attrs["schedule"] = makeBuiltin("torch.profiler.schedule", schedule);
    profiler.attrs["profile"] = makeBuiltin("torch.profiler.profile", profile);

    auto activity = std::make_shared<ModuleObject>();
    activity->name = "torch.profiler.ProfilerActivity";
    for (const char* kind : {"CPU", "CUDA"}) {
        auto value = std::make_shared<RecordObject>();
        value->type = "ProfilerActivity";
        value->text = std::string("ProfilerActivity.") + kind;
        activity->attrs[kind] = Value(ObjectPtr(value));
    }
    Value cpu = activity->attrs["CPU"];
    profiler.attrs["ProfilerActivity"] = Value(ObjectPtr(activity));
    // CUDA joins once the GPU backend runs kernels on a device.
    profiler.attrs["supported_activities"] = makeBuiltin("torch.profiler.supported_activities", [cpu](Interpreter&, CallArgs&) {
        return makeList({cpu});
    });
    profiler.attrs["kineto_available"] = makeBuiltin("torch.profiler.kineto_available", [](Interpreter&, CallArgs&) {
        return Value(true);  // the Chrome trace Fusescope writes stands in for Kineto's
    });
}

}  // namespace fusescope
