#include "model/run_store.h"

#include "model/json_fields.h"

namespace fusescope::gui {

const std::vector<int>& RunStore::compileEvents(const std::string& compileId) const {
    static const std::vector<int> none;
    auto it = byCompile_.find(compileId);
    return it == byCompile_.end() ? none : it->second;
}

void RunStore::index(int i) {
    const nlohmann::json& e = events_[static_cast<size_t>(i)];
    std::string id = stringField(e, "compile_id");
    if (!id.empty() && stringField(e, "type") != "trace_event") byCompile_[id].push_back(i);
}

void RunStore::append(nlohmann::json event) {
    events_.push_back(std::move(event));
    index(size() - 1);
    Q_EMIT eventAppended(size() - 1);
}

void RunStore::replace(std::vector<nlohmann::json> events) {
    events_ = std::move(events);
    byCompile_.clear();
    for (int i = 0; i < size(); ++i) index(i);
    Q_EMIT reset();
}

void RunStore::clear() {
    events_.clear();
    byCompile_.clear();
    Q_EMIT reset();
}

}  // namespace fusescope::gui
