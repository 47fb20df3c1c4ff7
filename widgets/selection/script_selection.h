#pragma once
// The script editor follows the selection like a pane: putting the cursor on a script line
// selects the first graph node that line made (in the compile on show), and the selected
// node's line is marked without moving the user's cursor. A selected module marks the line
// its class is defined on.

#include <QHash>
#include <QObject>
#include <QStringList>

#include "selection/selection_context.h"

class QsciScintilla;

namespace fusescope::gui {

class ScriptSelection : public QObject {
    Q_OBJECT
public:
    ScriptSelection(QsciScintilla* editor, SelectionContext* context, QObject* parent = nullptr);

    // The script's name as the run's events give it (their nodes' "file").
    void setScriptFile(const QString& name) { scriptFile_ = name; }

private:
    void followCompile(const CompileArtifacts& compile);
    void followNode(const QString& graphNode, const QString& buffer);
    void followModule(const QString& path);
    void mark(int line);  // 1-based; 0 clears the mark
    void onCursorLine(int line);  // 0-based, as the editor reports it
    bool selectNodeOfLine(int line);  // 1-based: the first node of the graph on show made there

    static constexpr int kMarker = 0;  // the selected node's script line
    QsciScintilla* editor_;
    SelectionContext* context_;
    QString scriptFile_;
    QHash<QString, int> lineOfNode_;  // captured node -> its line in the script
    QStringList nodeOrder_;           // those nodes in graph order
    QHash<QString, QString> classOfModule_;  // module path -> its class's name
};

}  // namespace fusescope::gui
