#include "model/run_store.h"

#include "model/json_fields.h"

namespace fusescope::gui {

const std::vector<int>& RunStore::compileEvents(const std::string& compileId) const {
    static const std::vector<int> none;
    auto it = byCompile_.find(compileId);
    return it == byCompile_.end() ? none : it->second;
}

void RunStore::index(int i) {
    std::string id = stringField(run_.events[static_cast<size_t>(i)], "compile_id");
    if (!id.empty()) byCompile_[id].push_back(i);
}

void RunStore::append(nlohmann::json event) {
    if (stringField(event, "type") == "trace_event" && run_.traces.append(event)) {
        Q_EMIT traceAppended(static_cast<int>(run_.traces.size()) - 1);
        return;
    }
    run_.events.push_back(std::move(event));
    index(size() - 1);
    Q_EMIT eventAppended(size() - 1);
}

void RunStore::replace(RunEvents run) {
    run_ = std::move(run);
    byCompile_.clear();
    for (int i = 0; i < size(); ++i) index(i);
    Q_EMIT reset();
}

}  // namespace fusescope::gui
