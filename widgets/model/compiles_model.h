#pragma once
// The Compiles view's tree: compiled functions (first-seen order) and, under each, its
// compile ids (0/0, 0/1, ...) with what became of them. Built from the RunStore's events
// and kept current as events arrive, so a live run and a reopened bundle look the same.

#include <string>
#include <vector>

#include <QAbstractItemModel>
#include <QHash>

#include "observe/event.h"

namespace fusescope::gui {

class RunStore;

class CompilesModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn, StatusColumn, GraphsColumn, OpsColumn, TimeColumn, HitsColumn, ColumnCount };
    // Worst first: a compile shows the first that applies. Compiling: started, its guards not
    // yet installed (nothing else about it is final).
    enum class Status { Failed, Compiling, Eager, GraphBreak, Recompiled, Ok };
    enum Role {
        CompileIdRole = Qt::UserRole + 1,  // QString; empty on function rows
        StatusRole,                        // int(Status); a function row has its worst compile's
    };

    explicit CompilesModel(const RunStore* store, QObject* parent = nullptr);

    QString compileId(const QModelIndex& index) const { return index.data(CompileIdRole).toString(); }
    QModelIndex indexForCompileId(const QString& id, int column = NameColumn) const;  // invalid when unknown
    static QString statusText(Status status);

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Compile {
        QString id;
        bool failed = false, compiling = false, eager = false, graphBreak = false, recompiled = false;
        QString reason;  // why it is not ok, for the status tooltip
        int graphs = 0, ops = 0, hits = 0;
        bool traced = false;  // compile-phase trace records seen: they time it, not the kernels
        // The time some phase of it ran: nested phases (PyTorch's logs nest them) count once.
        std::vector<std::pair<int64_t, int64_t>> phases;
        double traceMs = 0, kernelMs = 0;
        void addPhase(int64_t begin, int64_t end);
        Status status() const;
        Status settled() const;  // what it is (or will be) once compiled
        void mark(bool Compile::*flag, const std::string& why);  // keeps the reason of the worst status
        double ms() const { return traced ? traceMs : kernelMs; }
    };
    struct Function {
        QString name;
        std::vector<Compile> compiles;
    };
    struct Place {
        int function, compile;
    };

    void rebuild();
    void apply(const Event& event);
    void applyTrace(size_t record);  // compile phases time a compile, compiled regions count its hits
    void startCompile(const QString& function, const QString& id);
    Compile* find(const QString& id);
    void changed(const QString& id);
    static Compile summary(const Function& f);  // sums, and the worst status of its compiles
    static QVariant compileData(const Compile& c, int column, int role);

    const RunStore* store_;
    std::vector<Function> functions_;
    QHash<QString, int> functionRows_;
    QHash<QString, Place> places_;  // compile id -> where its row is
    QString compiling_;             // started and its guards not yet installed: an error now fails it
    bool resetting_ = false;        // inside rebuild(): no per-row signals
};

}  // namespace fusescope::gui
