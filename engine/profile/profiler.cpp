#include "profile/profiler.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <vector>

namespace fusescope {

namespace {

// Recursive: a sink's consumer may itself make records (or attach a sink) while a record
// is being dispatched on the same thread.
std::recursive_mutex& sinksMutex() {
    static std::recursive_mutex m;
    return m;
}

std::vector<TraceSink*>& sinks() {
    static std::vector<TraceSink*> s;
    return s;
}

// The rf_ids of the records open on this thread, innermost last: a new record's parent.
thread_local std::vector<int64_t> openRecords;

}  // namespace

std::atomic<int> Profiler::activeSinks_{0};

void Profiler::attach(TraceSink* sink) {
    std::lock_guard lock(sinksMutex());
    sinks().push_back(sink);
    activeSinks_.store(static_cast<int>(sinks().size()), std::memory_order_relaxed);
}

void Profiler::detach(TraceSink* sink) {
    std::lock_guard lock(sinksMutex());
    auto& s = sinks();
    s.erase(std::remove(s.begin(), s.end(), sink), s.end());
    activeSinks_.store(static_cast<int>(s.size()), std::memory_order_relaxed);
}

int64_t Profiler::nowNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

int64_t Profiler::nextRecordId() {
    static std::atomic<int64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
}

int64_t Profiler::currentThreadId() {
    thread_local int64_t tid = static_cast<int64_t>(::syscall(SYS_gettid));
    return tid;
}

void Profiler::dispatch(const TraceRecord& record) {
    // By index: handling a record may attach or detach sinks.
    std::lock_guard lock(sinksMutex());
    const auto& s = sinks();
    for (size_t i = 0; i < s.size(); ++i) s[i]->onRecord(record);
}

void Profiler::record(TraceRecord record) {
    if (!active()) return;
    record.rfId = nextRecordId();
    bool onThisThread = record.tid == 0;  // else a device's track (gpuTrackTid)
    record.parentId = onThisThread && !openRecords.empty() ? openRecords.back() : 0;
    if (onThisThread) record.tid = currentThreadId();
    dispatch(record);
}

RecordScope::RecordScope(TraceCategory category, std::string_view name) {
    if (!Profiler::active()) return;
    record_ = std::make_unique<TraceRecord>();
    record_->rfId = Profiler::nextRecordId();
    record_->parentId = openRecords.empty() ? 0 : openRecords.back();
    record_->category = category;
    record_->name = name;
    record_->tid = Profiler::currentThreadId();
    openRecords.push_back(record_->rfId);
    record_->beginNs = Profiler::nowNs();
}

RecordScope::~RecordScope() {
    if (!record_) return;
    record_->endNs = Profiler::nowNs();
    if (!openRecords.empty() && openRecords.back() == record_->rfId) openRecords.pop_back();
    if (Profiler::active()) Profiler::dispatch(*record_);
}

}  // namespace fusescope
