#include "model/run_store.h"


namespace fusescope::gui {

const std::vector<int>& RunStore::compileEvents(const std::string& compileId) const {
    static const std::vector<int> none;
    auto it = byCompile_.find(compileId);
    return it == byCompile_.end() ? none : it->second;
}

void RunStore::index(int i) {
    const std::string& id = compileIdOf(at(i));
    if (!id.empty()) byCompile_[id].push_back(i);
}

void RunStore::append(const nlohmann::json& event) {
    const size_t traces = run_.traces.size(), events = run_.events.size();
    run_.add(event);
    if (run_.traces.size() > traces) Q_EMIT traceAppended(static_cast<int>(traces));
    if (run_.events.size() == events) return;
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
