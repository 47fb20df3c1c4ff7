#pragma once
// Who reads and who writes each buffer among the pre-fusion scheduler nodes: the index that
// keeps users, fusion candidates and cycle checks proportional to the graph's edges, not to
// its pairs of nodes.

#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "schedule/scheduler.h"

namespace fusescope {

class ReadIndex {
public:
    // `nodes` in pre-fusion order; the index refers to them and to their dependencies' names.
    explicit ReadIndex(const std::vector<SchedulerNode*>& nodes);

    // Whether `n` reads `buffer` (met or unmet).
    bool reads(const SchedulerNode& n, std::string_view buffer) const;
    // The distinct buffers `n` reads, in the order its dependencies list them.
    const std::vector<std::string_view>& readNames(const SchedulerNode& n) const;
    // The nodes reading `buffer`, in pre-fusion order.
    const std::vector<SchedulerNode*>& readers(std::string_view buffer) const;
    // The node writing `buffer`; null for a graph input.
    SchedulerNode* writer(std::string_view buffer) const;
    // Every buffer somebody reads, with its readers.
    const std::unordered_map<std::string_view, std::vector<SchedulerNode*>>& allReaders() const { return readers_; }

private:
    struct NodeReads {
        std::vector<std::string_view> names;
        std::unordered_set<std::string_view> set;
    };
    std::unordered_map<const SchedulerNode*, NodeReads> reads_;
    std::unordered_map<std::string_view, std::vector<SchedulerNode*>> readers_;
    std::unordered_map<std::string_view, SchedulerNode*> writers_;
};

}  // namespace fusescope
