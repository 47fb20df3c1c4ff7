#pragma once
// The run's profiled spans (trace_event events) in a compact form the Execution Trace views
// draw and query fast, even with a million of them: one track per thread, each span at the
// depth its parent chain gives, every depth row sorted by begin time (spans of a row never
// overlap, so their ends are sorted too), and each span's children for the tree.
//
// The spans come from the RunStore's TraceLog; indexTraceSpans() builds the index from a
// copy of its records, off the GUI thread.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/trace_log.h"

namespace fusescope::gui {

struct TraceSpan {
    int64_t begin = 0, end = 0;
    int32_t name = 0;
    int32_t record = 0;   // into the TraceLog's records
    int32_t parent = -1;  // span index; -1 at the top of its thread
    int32_t track = 0;
    uint16_t depth = 0;
    SpanCategory category = SpanCategory::CpuOp;
    // A kernel's first call in its compile: it pays for first touches of memory, page faults
    // and caches, so it is no measure of the kernel (the views mark it "warm-up").
    bool warmUp = false;
};

struct TraceTrack {
    int64_t tid = 0;
    std::vector<std::vector<int32_t>> rows;  // per depth: span indices by begin
    std::vector<int32_t> roots;              // depth-0 spans by begin (rows[0])
};

struct TraceSpans {
    std::vector<TraceSpan> spans;  // by track, then begin time
    std::vector<std::string> names;
    std::vector<TraceTrack> tracks;
    // Children of span i: children[childStart[i] .. childStart[i + 1]), by begin time.
    std::vector<int32_t> childStart, children;
    std::vector<int32_t> rowInParent;  // position among its siblings
    int64_t first = 0, last = 0;       // earliest begin, latest end

    const std::string& nameOf(int32_t span) const { return names[static_cast<size_t>(spans[static_cast<size_t>(span)].name)]; }
    // The spans of one depth row of a track that intersect [t0, t1): [first, last) into rows.
    std::pair<size_t, size_t> rowRange(int track, int depth, int64_t t0, int64_t t1) const;
    // The span of a row covering time t; -1 when none.
    int32_t spanAt(int track, int depth, int64_t t) const;
    // The first span of a row beginning at or after t (an index into the row).
    size_t firstBeginningAt(int track, int depth, int64_t t) const;
};

TraceSpans indexTraceSpans(const std::vector<TraceSpanRecord>& records, std::vector<std::string> names);

}  // namespace fusescope::gui
