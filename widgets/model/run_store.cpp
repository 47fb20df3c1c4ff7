#include "model/run_store.h"

namespace fusescope::gui {

void RunStore::append(nlohmann::json event) {
    events_.push_back(std::move(event));
    Q_EMIT eventAppended(size() - 1);
}

void RunStore::replace(std::vector<nlohmann::json> events) {
    events_ = std::move(events);
    Q_EMIT reset();
}

void RunStore::clear() {
    events_.clear();
    Q_EMIT reset();
}

}  // namespace fusescope::gui
