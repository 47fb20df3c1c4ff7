#include "timeline/trace_spans.h"

#include <algorithm>
#include <set>
#include <unordered_map>

namespace fusescope::gui {

std::pair<size_t, size_t> TraceSpans::rowRange(int track, int depth, int64_t t0, int64_t t1) const {
    const auto& row = tracks[static_cast<size_t>(track)].rows[static_cast<size_t>(depth)];
    auto begin = std::partition_point(row.begin(), row.end(), [&](int32_t s) { return spans[static_cast<size_t>(s)].end <= t0; });
    auto end = std::partition_point(begin, row.end(), [&](int32_t s) { return spans[static_cast<size_t>(s)].begin < t1; });
    return {static_cast<size_t>(begin - row.begin()), static_cast<size_t>(end - row.begin())};
}

size_t TraceSpans::firstBeginningAt(int track, int depth, int64_t t) const {
    const auto& row = tracks[static_cast<size_t>(track)].rows[static_cast<size_t>(depth)];
    return static_cast<size_t>(std::partition_point(row.begin(), row.end(), [&](int32_t s) { return spans[static_cast<size_t>(s)].begin < t; }) -
                               row.begin());
}

int32_t TraceSpans::spanAt(int track, int depth, int64_t t) const {
    if (track < 0 || track >= static_cast<int>(tracks.size()) || depth < 0 ||
        depth >= static_cast<int>(tracks[static_cast<size_t>(track)].rows.size()))
        return -1;
    auto [first, last] = rowRange(track, depth, t, t + 1);
    return first < last ? tracks[static_cast<size_t>(track)].rows[static_cast<size_t>(depth)][first] : -1;
}

namespace {

// The first call of each kernel of each compile, in time order over every thread.
void markWarmUps(std::vector<TraceSpan>& spans, const std::vector<TraceSpanRecord>& records) {
    std::vector<int32_t> kernels;
    for (size_t i = 0; i < spans.size(); ++i)
        if (spans[i].category == SpanCategory::Kernel) kernels.push_back(static_cast<int32_t>(i));
    std::stable_sort(kernels.begin(), kernels.end(), [&](int32_t a, int32_t b) { return spans[size_t(a)].begin < spans[size_t(b)].begin; });
    std::set<std::pair<int32_t, int32_t>> seen;  // (name, compile)
    for (int32_t k : kernels) {
        TraceSpan& s = spans[static_cast<size_t>(k)];
        s.warmUp = seen.emplace(s.name, records[static_cast<size_t>(s.record)].compile).second;
    }
}

}  // namespace

TraceSpans indexTraceSpans(const std::vector<TraceSpanRecord>& records, std::vector<std::string> names) {
    TraceSpans out;
    out.names = std::move(names);
    // Threads in order of first appearance, then each thread's spans by begin (a parent
    // before its children when they begin together: longer first).
    std::unordered_map<int64_t, int32_t> trackOf;
    struct Order {
        int32_t track, record;
        int64_t begin, end;
    };
    std::vector<Order> order(records.size());
    for (size_t i = 0; i < records.size(); ++i) {
        const TraceSpanRecord& r = records[i];
        auto [track, added] = trackOf.emplace(r.tid, static_cast<int32_t>(out.tracks.size()));
        if (added) out.tracks.push_back({r.tid, {}, {}});
        order[i] = {track->second, static_cast<int32_t>(i), r.begin, r.end};
    }
    std::sort(order.begin(), order.end(), [](const Order& a, const Order& b) {
        if (a.track != b.track) return a.track < b.track;
        if (a.begin != b.begin) return a.begin < b.begin;
        return a.end > b.end;
    });
    std::unordered_map<int64_t, int32_t> indexOf;  // rf_id -> span
    indexOf.reserve(records.size());
    for (size_t i = 0; i < order.size(); ++i) indexOf.emplace(records[static_cast<size_t>(order[i].record)].rfId, static_cast<int32_t>(i));
    out.spans.resize(records.size());
    out.first = records.empty() ? 0 : INT64_MAX;
    for (size_t i = 0; i < order.size(); ++i) {
        const auto& r = records[static_cast<size_t>(order[i].record)];
        TraceSpan& s = out.spans[i];
        s = {r.begin, r.end, r.name, order[i].record, -1, order[i].track, 0, r.category};
        auto parent = indexOf.find(r.parentId);
        // A parent on the same thread that begins earlier (sorted first) gives the depth.
        if (r.parentId != 0 && parent != indexOf.end() && static_cast<size_t>(parent->second) < i &&
            out.spans[static_cast<size_t>(parent->second)].track == s.track) {
            s.parent = parent->second;
            s.depth = static_cast<uint16_t>(out.spans[static_cast<size_t>(s.parent)].depth + 1);
        }
        out.first = std::min(out.first, r.begin);
        out.last = std::max(out.last, r.end);
    }
    markWarmUps(out.spans, records);
    // Rows per depth, children per span (counting sort into one flat array).
    std::vector<int32_t> childCount(out.spans.size() + 1, 0);
    for (size_t i = 0; i < out.spans.size(); ++i) {
        const TraceSpan& s = out.spans[i];
        TraceTrack& track = out.tracks[static_cast<size_t>(s.track)];
        if (track.rows.size() <= s.depth) track.rows.resize(s.depth + 1u);
        track.rows[s.depth].push_back(static_cast<int32_t>(i));
        if (s.parent < 0) track.roots.push_back(static_cast<int32_t>(i));
        else ++childCount[static_cast<size_t>(s.parent)];
    }
    out.childStart.assign(out.spans.size() + 1, 0);
    for (size_t i = 0; i < out.spans.size(); ++i) out.childStart[i + 1] = out.childStart[i] + childCount[i];
    out.children.resize(static_cast<size_t>(out.childStart.back()));
    out.rowInParent.assign(out.spans.size(), 0);
    std::vector<int32_t> filled(out.spans.size(), 0);
    for (auto& track : out.tracks)
        for (size_t r = 0; r < track.roots.size(); ++r) out.rowInParent[static_cast<size_t>(track.roots[r])] = static_cast<int32_t>(r);
    for (size_t i = 0; i < out.spans.size(); ++i) {
        int32_t p = out.spans[i].parent;
        if (p < 0) continue;
        int32_t slot = filled[static_cast<size_t>(p)]++;
        out.children[static_cast<size_t>(out.childStart[static_cast<size_t>(p)] + slot)] = static_cast<int32_t>(i);
        out.rowInParent[i] = slot;
    }
    return out;
}

}  // namespace fusescope::gui
