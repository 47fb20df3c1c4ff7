#include "model/guards_model.h"

#include <algorithm>
#include <tuple>
#include <utility>

#include <QColor>
#include <QRegularExpression>

namespace fusescope::gui {

namespace {

// The engine writes a guard as "check  # source line" (the check padded to a column).
std::pair<QString, QString> checkAndSource(const QString& text) {
    qsizetype hash = text.indexOf("  # ");
    if (hash < 0) return {text.trimmed(), QString()};
    return {text.left(hash).trimmed(), text.mid(hash + 4).trimmed()};
}

// The property a tensor guard failed on, named as the check_tensor(...) call names it.
QString propertyName(const QString& words, const QString& index) {
    if (words == "dispatch key set") return "device";
    if (words == "Device index") return "device.index";
    if (!index.isEmpty()) return QString("%1[%2]").arg(words, index);
    return words;
}

}  // namespace

std::vector<GuardEntry> guardEntries(const Event& event) {
    std::vector<GuardEntry> entries;
    const auto* guards = std::get_if<GuardsEvent>(&event);
    if (!guards) return entries;
    bool hasLines = guards->lines.size() == guards->guards.size();  // parallel when the engine knows them
    for (size_t i = 0; i < guards->guards.size(); ++i) {
        GuardEntry entry;
        entry.text = QString::fromStdString(guards->guards[i]);
        std::tie(entry.check, entry.source) = checkAndSource(entry.text);
        if (hasLines) entry.line = std::max(0, guards->lines[i]);
        entries.push_back(std::move(entry));
    }
    return entries;
}

std::vector<GuardEntry> compileGuards(const RunStore& store, const QString& compileId) {
    std::vector<GuardEntry> guards;
    for (int i : store.compileEvents(compileId.toStdString()))
        if (auto entries = guardEntries(store.at(i)); !entries.empty()) guards = std::move(entries);
    return guards;
}

GuardFailure parseGuardFailure(const QString& reason) {
    // guard.cpp's tensor reasons: "tensor 'L['a']' size mismatch at index 0. expected 3, actual 2"
    // (in recompile reasons "tensor 'a' ..."),
    // "... dtype mismatch. expected Float, actual Double", "... requires_grad mismatch. expected requires_grad=1".
    static const QRegularExpression tensorReason(
        R"(^tensor '(.+)' (dispatch key set|dtype|Device index|requires_grad|rank|size|stride) mismatch)"
        R"((?: at index (\d+))?\. expected (.*?)(?:, actual (.*))?$)");
    static const QRegularExpression notATensor(R"(^expected type of '(.+)' to be <class 'torch.Tensor'>, but found (.*)$)");
    GuardFailure failure;
    failure.reason = reason;
    if (auto m = tensorReason.match(reason); m.hasMatch()) {
        failure.source = m.captured(1);
        failure.property = propertyName(m.captured(2), m.captured(3));
        failure.expected = m.captured(4);
        failure.actual = m.captured(5);
        if (failure.property == "requires_grad") {  // the reason gives only the expected flag
            bool expected = failure.expected.endsWith('1');
            failure.expected = expected ? "True" : "False";
            failure.actual = expected ? "False" : "True";
        }
    } else if (auto t = notATensor.match(reason); t.hasMatch()) {
        failure.source = t.captured(1);
        failure.property = "type";
        failure.expected = "Tensor";
        failure.actual = t.captured(2);
    }
    return failure;
}

GuardsModel::GuardsModel(const RunStore* store, QObject* parent) : QAbstractTableModel(parent), store_(store) {
    connect(store_, &RunStore::eventAppended, this, &GuardsModel::onAppended);
    connect(store_, &RunStore::reset, this, &GuardsModel::rebuild);
}

void GuardsModel::setCompileId(const QString& compileId) {
    if (compileId == compileId_) return;
    compileId_ = compileId;
    rebuild();
}

void GuardsModel::rebuild() {
    beginResetModel();
    rows_.clear();
    file_.clear();
    for (int i : store_->compileEvents(compileId_.toStdString())) {
        const Event& e = store_->at(i);
        if (const auto* started = std::get_if<CompileStartedEvent>(&e)) file_ = QString::fromStdString(started->where.file);
        std::vector<GuardEntry> guards = guardEntries(e);  // a compile has one guards event, before any failure
        if (!guards.empty()) rows_.clear();
        for (GuardEntry& guard : guards) rows_.push_back({std::move(guard), {}});
        applyFailures(e);
    }
    endResetModel();
}

void GuardsModel::onAppended(int index) {
    const Event& e = store_->at(index);
    if (compileId_.isEmpty() || compileIdOf(e) != compileId_.toStdString()) return;
    if (std::holds_alternative<GuardsEvent>(e)) return rebuild();
    for (int row : applyFailures(e)) Q_EMIT dataChanged(this->index(row, 0), this->index(row, ColumnCount - 1));
}

std::vector<int> GuardsModel::applyFailures(const Event& event) {
    std::vector<int> changed;
    const auto* guardFailure = std::get_if<GuardFailureEvent>(&event);
    if (!guardFailure) return changed;
    for (const std::string& reason : guardFailure->reasons) {
        GuardFailure failure = parseGuardFailure(QString::fromStdString(reason));
        int row = rowFor(failure);
        if (row < 0) continue;
        rows_[static_cast<size_t>(row)].failures.push_back(std::move(failure));
        changed.push_back(row);
    }
    std::sort(changed.begin(), changed.end());
    changed.erase(std::unique(changed.begin(), changed.end()), changed.end());
    return changed;
}

int GuardsModel::rowFor(const GuardFailure& failure) const {
    auto find = [this](auto matches) {
        auto it = std::find_if(rows_.begin(), rows_.end(), [&](const Row& row) { return matches(row.guard.check); });
        return it == rows_.end() ? -1 : static_cast<int>(it - rows_.begin());
    };
    if (failure.source.isEmpty()) {
        // A recompile reason writes L['n'] as n (PyTorch's strip_local_scope).
        static const QRegularExpression localScope(R"(L\[\s*['"](.*?)['"]\s*\])");
        const QString check = checkAndSource(failure.reason).first;
        return find([&](QString c) { return c == check || c.replace(localScope, "\\1") == check; });
    }
    // Recompile reasons name a local as PyTorch does ("a"); the guards keep its source ("L['a']").
    for (const QString& source : {"L['" + failure.source + "']", failure.source}) {
        int row = find([&](const QString& c) { return c.startsWith("check_tensor(" + source + ","); });
        if (row >= 0) return row;
    }
    return find([&](const QString& c) { return c.contains(failure.source); });
}

int GuardsModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(rows_.size()); }

int GuardsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString GuardsModel::tooltip(const Row& row) const {
    QStringList lines{row.guard.check};
    for (const GuardFailure& f : row.failures)
        lines << (f.property.isEmpty() ? tr("a later call failed it")  // the reason is the guard's own text
                                       : tr("%1: expected %2, actual %3").arg(f.property, f.expected, f.actual));
    return lines.join('\n');
}

QVariant GuardsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
    const Row& row = rows_[static_cast<size_t>(index.row())];
    const int failures = static_cast<int>(row.failures.size());
    if (role == LineRole) return row.guard.line;
    if (role == FileRole) return file_;
    if (role == FailureCountRole) return failures;
    if (role == Qt::ToolTipRole) return index.column() == SourceColumn ? data(index, Qt::DisplayRole) : QVariant(tooltip(row));
    if (role == Qt::ForegroundRole && index.column() == StatusColumn && failures) return QColor(170, 40, 0);
    if (role != Qt::DisplayRole) return {};
    const GuardFailure* latest = failures ? &row.failures.back() : nullptr;
    switch (index.column()) {
        case GuardColumn: return row.guard.check;
        case SourceColumn: return row.guard.line ? QString("%1: %2").arg(row.guard.line).arg(row.guard.source) : row.guard.source;
        case StatusColumn: return failures ? tr("failed (%1×)").arg(failures) : tr("ok");
        case MismatchColumn: return latest ? latest->property : QString();
        case ExpectedColumn: return latest ? latest->expected : QString();
        case ActualColumn: return latest ? latest->actual : QString();
    }
    return {};
}

QVariant GuardsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case GuardColumn: return tr("Guard");
        case SourceColumn: return tr("Source");
        case StatusColumn: return tr("Status");
        case MismatchColumn: return tr("Mismatch");
        case ExpectedColumn: return tr("Expected");
        case ActualColumn: return tr("Actual");
    }
    return {};
}

}  // namespace fusescope::gui
