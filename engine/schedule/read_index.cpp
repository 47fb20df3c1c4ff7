#include "schedule/read_index.h"

namespace fusescope {

ReadIndex::ReadIndex(const std::vector<SchedulerNode*>& nodes) {
    for (SchedulerNode* n : nodes) {
        writers_[n->name] = n;
        NodeReads& r = reads_[n];
        for (const auto* deps : {&n->unmetDependencies, &n->metDependencies})
            for (const Dep& d : *deps)
                if (r.set.insert(d.name).second) {
                    r.names.push_back(d.name);
                    readers_[d.name].push_back(n);
                }
    }
}

bool ReadIndex::reads(const SchedulerNode& n, std::string_view buffer) const { return reads_.at(&n).set.count(buffer) > 0; }

const std::vector<std::string_view>& ReadIndex::readNames(const SchedulerNode& n) const { return reads_.at(&n).names; }

const std::vector<SchedulerNode*>& ReadIndex::readers(std::string_view buffer) const {
    static const std::vector<SchedulerNode*> none;
    auto it = readers_.find(buffer);
    return it == readers_.end() ? none : it->second;
}

SchedulerNode* ReadIndex::writer(std::string_view buffer) const {
    auto it = writers_.find(buffer);
    return it == writers_.end() ? nullptr : it->second;
}

}  // namespace fusescope
