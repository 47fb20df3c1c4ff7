#include "views/script_tabs.h"

#include <QTabBar>
#include <Qsci/qsciscintilla.h>

#include "views/code_view.h"

namespace fusescope::gui {

namespace {

constexpr const char* kFileProperty = "fusescopeFile";  // a module tab's file as locations name it

}  // namespace

ScriptTabs::ScriptTabs(QsciScintilla* script, const RunStore* store, QWidget* parent)
    : QTabWidget(parent), script_(script), store_(store) {
    setDocumentMode(true);
    addTab(script_, QStringLiteral("script.py"));
    tabBar()->setAutoHide(true);  // a script that imports nothing of its own shows just the editor
    connect(script_, &QsciScintilla::cursorPositionChanged, this, [this](int line, int) { Q_EMIT cursorLineChanged(scriptFile_, line); });
    connect(store_, &RunStore::eventAppended, this, &ScriptTabs::append);
    connect(store_, &RunStore::reset, this, &ScriptTabs::rebuild);
}

void ScriptTabs::setScriptFile(const QString& file) {
    scriptFile_ = file;
    setTabText(0, file.isEmpty() ? QStringLiteral("script.py") : file.section('/', -1));
    setTabToolTip(0, file);
}

QsciScintilla* ScriptTabs::editorOf(const QString& file) const {
    if (file.isEmpty() || file == scriptFile_) return script_;
    for (QsciScintilla* editor : editors())
        if (editor->property(kFileProperty).toString() == file) return editor;
    return nullptr;
}

QString ScriptTabs::fileOf(const QsciScintilla* editor) const {
    return editor == script_ ? scriptFile_ : editor->property(kFileProperty).toString();
}

QList<QsciScintilla*> ScriptTabs::editors() const {
    QList<QsciScintilla*> all;
    for (int i = 0; i < count(); ++i)
        if (auto* editor = qobject_cast<QsciScintilla*>(widget(i))) all.append(editor);
    return all;
}

bool ScriptTabs::showLine(const QString& file, int line) {
    QsciScintilla* editor = editorOf(file);
    if (!editor || line <= 0) return false;
    setCurrentWidget(editor);
    editor->setCursorPosition(line - 1, 0);
    editor->ensureLineVisible(line - 1);
    editor->setFocus();
    return true;
}

void ScriptTabs::rebuild() {
    removeModules();
    for (const Event& event : store_->events())
        if (const auto* module = std::get_if<ModuleImportedEvent>(&event)) addModule(*module);
}

void ScriptTabs::append(int eventIndex) {
    if (const auto* module = std::get_if<ModuleImportedEvent>(&store_->at(eventIndex))) addModule(*module);
}

void ScriptTabs::addModule(const ModuleImportedEvent& module) {
    const QString file = QString::fromStdString(module.file);
    QsciScintilla* editor = editorOf(file);
    if (!editor) {
        editor = new QsciScintilla(this);
        configureCodeEditor(*editor, CodeView::Language::Python);
        editor->setProperty(kFileProperty, file);
        connect(editor, &QsciScintilla::cursorPositionChanged, this, [this, editor](int line, int) { Q_EMIT cursorLineChanged(fileOf(editor), line); });
        addTab(editor, QString::fromStdString(module.path));
        setTabToolTip(count() - 1, tr("%1 (read-only: the text it ran with)").arg(file));
    }
    editor->setReadOnly(false);
    editor->setText(QString::fromStdString(module.source));
    editor->setReadOnly(true);
}

void ScriptTabs::removeModules() {
    setCurrentIndex(0);
    while (count() > 1) {
        QWidget* module = widget(count() - 1);
        removeTab(count() - 1);
        delete module;
    }
}

}  // namespace fusescope::gui
