#include "model/trace_ranks.h"

#include <algorithm>

namespace fusescope::gui {

void TraceRanks::show(const QString& folder, std::shared_ptr<const RankComparison> ranks, int rank) {
    folder_ = ranks ? folder : QString();
    ranks_ = std::move(ranks);
    shown_ = ranks_ ? rank : -1;
    Q_EMIT changed();
}

bool TraceRanks::has(int rank) const {
    return ranks_ && std::any_of(ranks_->ranks.begin(), ranks_->ranks.end(), [rank](const RankSummary& r) { return r.rank == rank; });
}

}  // namespace fusescope::gui
