#include "profile/execution_trace_observer.h"

#include <fstream>

#include "core/error.h"
#include "profile/trace_export.h"

namespace fusescope {

ExecutionTraceObserver::~ExecutionTraceObserver() {
    if (running_) Profiler::detach(this);
}

void ExecutionTraceObserver::registerCallback(std::string path) {
    path_ = std::move(path);
    // Fail now, not at the end of a long run, when the file cannot be written.
    std::ofstream probe(path_, std::ios::binary | std::ios::trunc);
    if (!probe) throw ScriptError("RuntimeError", "ExecutionTraceObserver: cannot write '" + path_ + "'");
}

void ExecutionTraceObserver::start() {
    if (path_.empty()) throw ScriptError("RuntimeError", "ExecutionTraceObserver.start(): call register_callback(path) first");
    if (running_) return;
    if (startNs_ == 0) startNs_ = Profiler::nowNs();
    running_ = true;
    Profiler::attach(this);
}

void ExecutionTraceObserver::stop() {
    if (!running_) return;
    Profiler::detach(this);
    running_ = false;
    finishNs_ = Profiler::nowNs();
    writeFile();
}

void ExecutionTraceObserver::unregisterCallback() {
    if (running_) stop();
    if (!path_.empty()) writeFile();
}

void ExecutionTraceObserver::onRecord(const TraceRecord& record) {
    std::lock_guard lock(mutex_);
    records_.push_back(record);
}

void ExecutionTraceObserver::writeFile() {
    int64_t start = startNs_ ? startNs_ : Profiler::nowNs();
    int64_t finish = finishNs_ ? finishNs_ : start;
    std::lock_guard lock(mutex_);
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out << executionTraceText(records_, start, finish);
    if (!out) throw ScriptError("RuntimeError", "ExecutionTraceObserver: cannot write '" + path_ + "'");
}

}  // namespace fusescope
