#include "model/guard_table_model.h"

#include <QColor>
#include <QRegularExpression>

#include "model/json_fields.h"

namespace fusescope::gui {

namespace {

// The source a reason is about and the expected / actual values it gives:
// "tensor 'L['a']' size mismatch at index 0. expected 3, actual 2".
struct Reason {
    QString source, kind, expected, actual;
};

Reason parseReason(const QString& text) {
    static const QRegularExpression about(R"(^\w+ '(.+?)' (\w+))");
    static const QRegularExpression values(R"(expected (.+), actual (.+)$)");
    Reason r;
    if (auto m = about.match(text); m.hasMatch()) {
        r.source = m.captured(1);
        r.kind = m.captured(2);  // size, stride, dtype, device, rank, requires_grad, ...
    }
    if (auto m = values.match(text); m.hasMatch()) {
        r.expected = m.captured(1);
        r.actual = m.captured(2);
    }
    return r;
}

}  // namespace

GuardTableModel::GuardTableModel(const RunStore* store, QObject* parent) : QAbstractTableModel(parent), store_(store) {
    connect(store_, &RunStore::eventAppended, this, &GuardTableModel::onAppended);
    connect(store_, &RunStore::reset, this, &GuardTableModel::rebuild);
}

void GuardTableModel::setCompileId(const QString& compileId) {
    compileId_ = compileId;
    rebuild();
}

void GuardTableModel::setScript(const QString& script) {
    scriptLines_ = script.split('\n');
    rebuild();
}

void GuardTableModel::rebuild() {
    beginResetModel();
    rows_.clear();
    for (int i : store_->compileEvents(compileId_.toStdString())) {
        const nlohmann::json& e = store_->at(i);
        const std::string type = stringField(e, "type");
        if (type == "guards" && e.contains("guards") && e["guards"].is_array()) {
            rows_.clear();
            for (const auto& g : e["guards"]) {
                if (!g.is_string()) continue;
                QString text = QString::fromStdString(g.get<std::string>());
                int hash = static_cast<int>(text.indexOf("  # "));
                Row row;
                row.check = hash < 0 ? text : text.left(hash).trimmed();
                row.source = hash < 0 ? QString() : text.mid(hash + 4).trimmed();
                for (int l = 0; l < scriptLines_.size() && !row.source.isEmpty(); ++l)
                    if (scriptLines_[l].trimmed() == row.source) {
                        row.line = l + 1;
                        break;
                    }
                rows_.push_back(std::move(row));
            }
        } else if (type == "guard_failure" && e.contains("reasons") && e["reasons"].is_array()) {
            for (const auto& r : e["reasons"])
                if (r.is_string()) applyFailure(QString::fromStdString(r.get<std::string>()));
        }
    }
    endResetModel();
}

void GuardTableModel::applyFailure(const QString& text) {
    Reason reason = parseReason(text);
    Row* target = nullptr;
    for (Row& row : rows_) {
        if (reason.source.isEmpty() || !row.check.contains(reason.source)) continue;
        if (!target) target = &row;
        if (!reason.kind.isEmpty() && row.check.contains(reason.kind)) {
            target = &row;
            break;
        }
    }
    if (!target) return;
    ++target->failures;
    target->expected = reason.expected;
    target->actual = reason.actual;
    target->reasons << text;
}

void GuardTableModel::onAppended(int index) {
    const nlohmann::json& e = store_->at(index);
    const std::string type = stringField(e, "type");
    if ((type == "guards" || type == "guard_failure") && qstringField(e, "compile_id") == compileId_) rebuild();
}

int GuardTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(rows_.size()); }

int GuardTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant GuardTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
    const Row& r = rows_[static_cast<size_t>(index.row())];
    if (role == LineRole) return r.line;
    if (role == FailedRole) return r.failures > 0;
    if (role == Qt::ToolTipRole) return r.reasons.isEmpty() ? r.check : r.reasons.join('\n');
    if (role == Qt::ForegroundRole && index.column() == StatusColumn && r.failures) return QColor(170, 40, 0);
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
        case GuardColumn: return r.check;
        case SourceColumn: return r.line ? QString("%1: %2").arg(r.line).arg(r.source) : r.source;
        case StatusColumn: return r.failures ? tr("failed (%1×)").arg(r.failures) : tr("ok");
        case ExpectedColumn: return r.expected;
        case ActualColumn: return r.actual;
    }
    return {};
}

QVariant GuardTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case GuardColumn: return tr("Guard");
        case SourceColumn: return tr("Source line");
        case StatusColumn: return tr("Status");
        case ExpectedColumn: return tr("Expected");
        case ActualColumn: return tr("Actual");
    }
    return {};
}

RecompileReasonsModel::RecompileReasonsModel(const RunStore* store, QObject* parent) : QAbstractListModel(parent), store_(store) {
    connect(store_, &RunStore::eventAppended, this, &RecompileReasonsModel::onAppended);
    connect(store_, &RunStore::reset, this, &RecompileReasonsModel::rebuild);
    rebuild();
}

bool RecompileReasonsModel::parse(const nlohmann::json& event, QString& text) {
    if (stringField(event, "type") != "recompile") return false;
    // The engine's message already reads as PyTorch's: "Recompiling function f in file:6
    // triggered by the following guard failure(s): - 0/0: ...". Lead with the new compile id.
    text = tr("%1: %2").arg(qstringField(event, "compile_id"), qstringField(event, "message"));
    return true;
}

void RecompileReasonsModel::rebuild() {
    beginResetModel();
    rows_.clear();
    QString text;
    for (const auto& e : store_->events())
        if (parse(e, text)) rows_ << text;
    endResetModel();
}

void RecompileReasonsModel::onAppended(int index) {
    QString text;
    if (!parse(store_->at(index), text)) return;
    beginInsertRows({}, static_cast<int>(rows_.size()), static_cast<int>(rows_.size()));
    rows_ << text;
    endInsertRows();
}

int RecompileReasonsModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(rows_.size()); }

QVariant RecompileReasonsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) || (role != Qt::DisplayRole && role != Qt::ToolTipRole)) return {};
    return rows_[index.row()];
}

}  // namespace fusescope::gui
