#include "model/recompile_reasons_model.h"

#include "model/engine_words.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include "observe/recompile_fixes.h"

namespace fusescope::gui {

RecompileReasonsModel::RecompileReasonsModel(const RunStore* store, QObject* parent)
    : QAbstractTableModel(parent), store_(store) {
    connect(store_, &RunStore::eventAppended, this, &RecompileReasonsModel::append);
    connect(store_, &RunStore::reset, this, &RecompileReasonsModel::rebuild);
    rebuild();
}

bool RecompileReasonsModel::parse(const Event& event, Recompile& out) {
    const auto* recompile = std::get_if<RecompileEvent>(&event);
    if (!recompile) return false;
    out.compileId = QString::fromStdString(recompile->compileId);
    out.function = QString::fromStdString(recompile->function);
    out.file = QString::fromStdString(recompile->where.file);
    out.line = recompile->where.line;
    // The message is PyTorch's, every failure listed (compile_manager.cpp):
    //   Recompiling function f in file:6
    //       triggered by the following guard failure(s):
    //       - 0/0: tensor 'a' size mismatch at index 0. expected 3, actual 2
    //       - 0/0: n == 1                       # return x + n  # file:7 in f
    //       - User stack trace:                 (and its frames: not reasons)
    static const QRegularExpression failure(R"(^\s*- (\S+: .*)$)");
    for (const QString& line : QString::fromStdString(recompile->message).split('\n'))
        if (auto m = failure.match(line); m.hasMatch()) out.reasons << m.captured(1);
    if (!out.reasons.isEmpty()) {
        auto translated = [](const char* advice) { return QCoreApplication::translate("RecompileFixes", advice).toStdString(); };
        out.fix = QString::fromStdString(recompileFix(out.reasons.front().toStdString(), translated));
    }
    out.fixFile = QString::fromStdString(recompile->fix.file);
    out.fixLine = recompile->fix.line;
    out.fixText = QString::fromStdString(recompile->fix.text);
    return true;
}

void RecompileReasonsModel::rebuild() {
    beginResetModel();
    recompiles_.clear();
    for (const auto& e : store_->events())
        if (Recompile r; parse(e, r)) recompiles_.push_back(std::move(r));
    endResetModel();
}

void RecompileReasonsModel::append(int eventIndex) {
    Recompile r;
    if (!parse(store_->at(eventIndex), r)) return;
    int row = static_cast<int>(recompiles_.size());
    beginInsertRows({}, row, row);
    recompiles_.push_back(std::move(r));
    endInsertRows();
}

int RecompileReasonsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(recompiles_.size());
}

int RecompileReasonsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant RecompileReasonsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
    const Recompile& r = recompiles_[static_cast<size_t>(index.row())];
    if (role == CompileIdRole) return r.compileId;
    if (role == LineRole) return r.line;
    if (role == FileRole) return r.file;
    if (role == ReasonsRole) return r.reasons;
    if (role == FixFileRole) return r.fixFile;
    if (role == FixLineRole) return r.fixLine;
    if (role == FixTextRole) return r.fixText;
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
    switch (index.column()) {
        case CompileIdColumn: return r.compileId;
        case FunctionColumn: return r.function;
        case WhereColumn: return r.line ? QString("%1:%2").arg(r.file).arg(r.line) : r.file;
        case ReasonsColumn: return inInterfaceLanguage(r.reasons.join('\n'));
        case FixColumn: return r.fix;
    }
    return {};
}

QVariant RecompileReasonsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case CompileIdColumn: return tr("Compile");
        case FunctionColumn: return tr("Function");
        case WhereColumn: return tr("Where");
        case ReasonsColumn: return tr("Guard failures");
        case FixColumn: return tr("How to avoid it");
    }
    return {};
}

}  // namespace fusescope::gui
