#include "profile/profiler.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <vector>

namespace fusescope {

namespace {

// The rf_ids of the records open on this thread, innermost last: a new record's parent.
thread_local std::vector<int64_t> openRecords;

}  // namespace

void Profiler::attach(TraceSink* sink) { ThreadCurrent<ProfilerContext>::get().attached.push_back(sink); }

void Profiler::detach(TraceSink* sink) {
    auto& s = ThreadCurrent<ProfilerContext>::get().attached;
    s.erase(std::remove(s.begin(), s.end(), sink), s.end());
}

int64_t Profiler::nowNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

int64_t Profiler::nextRecordId() { return ++ThreadCurrent<ProfilerContext>::get().lastRecordId; }

int64_t Profiler::currentThreadId() {
    thread_local int64_t tid = static_cast<int64_t>(::syscall(SYS_gettid));
    return tid;
}

void Profiler::dispatch(const TraceRecord& record) {
    // By index: handling a record may attach or detach sinks.
    const auto& s = ThreadCurrent<ProfilerContext>::get().attached;
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
