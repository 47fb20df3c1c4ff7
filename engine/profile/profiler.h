#pragma once
// The profiler. Records are made by RecordScope objects placed around eager ops, compiled
// calls, kernels, compile phases and script annotations; they go to every sink attached on
// the thread (the session's trace stream, an ExecutionTraceObserver window, a
// torch.profiler.profile step). Each session owns its ProfilerContext (installed on the thread
// that runs its script): its sinks, record ids and object ids, so two sessions in one
// process never see each other's records, and each numbers its records as a fresh process. With no sink attached a RecordScope costs one check, so the hooks stay compiled
// in everywhere.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/thread_current.h"
#include "profile/trace_record.h"

namespace fusescope {

class TraceSink {
public:
    virtual ~TraceSink() = default;
    virtual void onRecord(const TraceRecord& record) = 0;  // called when a record ends
};

// What one session's records share (or a thread's outside any session).
struct ProfilerContext {
    std::vector<TraceSink*> attached;
    int64_t lastRecordId = 0;
    std::unordered_map<const void*, int64_t> objectIds;  // trace_args.h's traceObjectId
};
using ProfilerContextScope = ThreadCurrent<ProfilerContext>::Scope;

class Profiler {
public:
    static bool active() { return !ThreadCurrent<ProfilerContext>::get().attached.empty(); }
    // To and from the current thread's sinks (its session's).
    static void attach(TraceSink* sink);
    static void detach(TraceSink* sink);
    static int64_t nowNs();  // steady clock
    static int64_t nextRecordId();  // 1, 2, ... in the current context
    static int64_t currentThreadId();
    // Reports a span measured by hand (one that no scope encloses, such as the capture of
    // a graph, which interleaves with the script's own code). Fills rf_id, and parent and tid
    // unless the record names a device's track (a GPU kernel: tid = gpuTrackTid(...)).
    static void record(TraceRecord record);

private:
    friend class RecordScope;
    static void dispatch(const TraceRecord& record);
};

// Records what runs between its construction and destruction when the profiler is active.
class RecordScope {
public:
    RecordScope(TraceCategory category, std::string_view name);
    ~RecordScope();
    RecordScope(const RecordScope&) = delete;
    RecordScope& operator=(const RecordScope&) = delete;

    // Null when the profiler was inactive at construction: callers fill in details only then.
    TraceRecord* record() { return record_.get(); }

private:
    std::unique_ptr<TraceRecord> record_;
};

// A sink that forwards each record to a function (the session's trace_event stream).
class FunctionTraceSink : public TraceSink {
public:
    explicit FunctionTraceSink(std::function<void(const TraceRecord&)> fn) : fn_(std::move(fn)) {}
    void onRecord(const TraceRecord& record) override { fn_(record); }

private:
    std::function<void(const TraceRecord&)> fn_;
};

}  // namespace fusescope
