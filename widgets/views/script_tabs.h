#pragma once
// The script and every module of its own the run imported, one editor tab each: the script's
// tab is the editor the user edits and runs; a module's tab shows the text it ran with,
// read-only. The tabs follow the run store like a pane: a live run's or a bundle's
// module_imported events add them, a new run takes them away. Locations name a file as the
// run's events do (the script's name, a module's path joined to the script's folder).

#include <QString>
#include <QTabWidget>

#include "model/run_store.h"

class QsciScintilla;

namespace fusescope::gui {

class ScriptTabs : public QTabWidget {
    Q_OBJECT
public:
    ScriptTabs(QsciScintilla* script, const RunStore* store, QWidget* parent = nullptr);

    QsciScintilla* script() const { return script_; }
    // The script's name as the run's events give it ("" before any run: every location is
    // then the script's).
    void setScriptFile(const QString& file);
    const QString& scriptFile() const { return scriptFile_; }

    // The editor of a file as locations name it ("" is the script's); null when no tab has it.
    QsciScintilla* editorOf(const QString& file) const;
    QString fileOf(const QsciScintilla* editor) const;  // as locations name it
    QList<QsciScintilla*> editors() const;  // the script's first, then the modules' in import order

    // Raises the tab of file and puts its cursor on line (1-based); false when no tab has file.
    bool showLine(const QString& file, int line);

Q_SIGNALS:
    // The cursor moved to line (0-based) of an editor: the script's or a module's.
    void cursorLineChanged(const QString& file, int line);

private:
    void rebuild();
    void append(int eventIndex);
    void addModule(const ModuleImportedEvent& module);
    void removeModules();

    QsciScintilla* script_;
    const RunStore* store_;
    QString scriptFile_;
};

}  // namespace fusescope::gui
