#include "panes/logs_pane.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QFontDatabase>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "model/logs_model.h"

namespace fusescope::gui {

LogsPane::LogsPane(SelectionContext* context, QWidget* parent) : Pane(context, parent) {
    auto* logs = new LogsModel(&context->store(), this);
    auto* filter = new LogFilterProxy(this);
    filter->setSourceModel(logs);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* bar = new QHBoxLayout;
    auto* search = new QLineEdit(this);
    search->setPlaceholderText(tr("Search log messages"));
    search->setClearButtonEnabled(true);
    connect(search, &QLineEdit::textChanged, filter, &LogFilterProxy::setText);
    auto* level = new QComboBox(this);
    for (LogLevel l : {LogLevel::Debug, LogLevel::Info, LogLevel::Warning, LogLevel::Error})
        level->addItem(tr("%1 and above").arg(LogsModel::levelText(l)), static_cast<int>(l));
    connect(level, &QComboBox::currentIndexChanged, filter,
            [filter, level] { filter->setMinimumLevel(static_cast<LogLevel>(level->currentData().toInt())); });
    auto* thisCompile = new QComboBox(this);
    thisCompile->addItem(tr("All compiles"), false);
    thisCompile->addItem(tr("Selected compile"), true);
    auto applyCompile = [context, filter, thisCompile] {
        filter->setCompileId(thisCompile->currentData().toBool() ? context->compileId() : QString());
    };
    connect(thisCompile, &QComboBox::currentIndexChanged, filter, applyCompile);
    connect(context, &SelectionContext::compileChanged, filter, applyCompile);
    // The artifacts and components seen so far (fusion, guards, dynamo, ...), one at a time.
    auto* artifact = new QComboBox(this);
    artifact->addItem(tr("All artifacts"), QString());
    auto addNames = [logs, artifact](int first, int last) {
        for (int row = first; row <= last; ++row) {
            QString name = logs->index(row, LogsModel::NameColumn).data().toString();
            if (!name.isEmpty() && artifact->findData(name) < 0) artifact->addItem(name, name);
        }
    };
    connect(logs, &QAbstractItemModel::rowsInserted, artifact, [addNames](const QModelIndex&, int first, int last) { addNames(first, last); });
    connect(logs, &QAbstractItemModel::modelReset, artifact, [logs, artifact, addNames] {
        while (artifact->count() > 1) artifact->removeItem(1);
        addNames(0, logs->rowCount() - 1);
    });
    connect(artifact, &QComboBox::currentIndexChanged, filter, [filter, artifact] {
        QString name = artifact->currentData().toString();
        filter->setNames(name.isEmpty() ? QSet<QString>{} : QSet<QString>{name});
    });
    bar->addWidget(search, 1);
    bar->addWidget(artifact);
    bar->addWidget(level);
    bar->addWidget(thisCompile);
    layout->addLayout(bar);
    auto* table = new QTableView(this);
    table->setModel(filter);
    table->setSortingEnabled(false);
    table->horizontalHeader()->setStretchLastSection(true);
    table->verticalHeader()->hide();
    table->setWordWrap(false);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    // The selected record whole (GUARDS:, a graph's code: many lines) under the table.
    auto* record = new QPlainTextEdit(this);
    record->setObjectName("logRecord");
    record->setReadOnly(true);
    record->setLineWrapMode(QPlainTextEdit::NoWrap);
    record->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    record->setPlaceholderText(tr("Select a record to read it whole"));
    connect(table->selectionModel(), &QItemSelectionModel::currentRowChanged, record, [record](const QModelIndex& current) {
        record->setPlainText(current.siblingAtColumn(LogsModel::MessageColumn).data(Qt::ToolTipRole).toString());
    });
    connect(filter, &QAbstractItemModel::modelReset, record, &QPlainTextEdit::clear);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(table);
    split->addWidget(record);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    layout->addWidget(split);
}

}  // namespace fusescope::gui
