#pragma once
// The ranks of the distributed run on show (a TORCH_TRACE folder with a log per rank): all of
// them compared, and which rank's log the panes show. The Ranks pane reads it and asks for
// another rank; the main window reads that rank's log and says so here.

#include <memory>

#include <QObject>
#include <QString>

#include "torch_trace/rank_comparison.h"

namespace fusescope::gui {

class TraceRanks : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    // A distributed run's folder opened, showing `rank`'s log; null `ranks`: none on show.
    void show(const QString& folder, std::shared_ptr<const RankComparison> ranks, int rank);
    void clear() { show({}, nullptr, -1); }

    const RankComparison* comparison() const { return ranks_.get(); }
    std::shared_ptr<const RankComparison> shared() const { return ranks_; }
    QString folder() const { return folder_; }
    int shownRank() const { return shown_; }
    bool has(int rank) const;

    // A pane asks for `rank`'s log, and then for `compileId` selected in it ("": its first).
    void request(int rank, const QString& compileId = {}) { Q_EMIT rankRequested(rank, compileId); }

Q_SIGNALS:
    void changed();
    void rankRequested(int rank, const QString& compileId);

private:
    QString folder_;
    std::shared_ptr<const RankComparison> ranks_;
    int shown_ = -1;
};

}  // namespace fusescope::gui
