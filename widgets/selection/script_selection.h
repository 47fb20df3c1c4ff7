#pragma once
// The script's editors follow the selection like a pane: putting the cursor on a line of the
// script, or of a module of its own it imported, selects the first graph node that line made
// (in the compile on show), and the selected node's line is marked, its file's tab raised,
// without moving the user's cursor. A selected module marks the line its class is defined on.

#include <QHash>
#include <QObject>
#include <QStringList>

#include "selection/selection_context.h"

class QsciScintilla;

namespace fusescope::gui {

class ScriptTabs;

class ScriptSelection : public QObject {
    Q_OBJECT
public:
    ScriptSelection(ScriptTabs* tabs, SelectionContext* context, QObject* parent = nullptr);

    struct Location {
        QString file;  // as the run's events name it
        int line = 0;  // 1-based; 0: none
        bool operator==(const Location& o) const { return line == o.line && file == o.file; }
    };

private:
    void followCompile(const CompileArtifacts& compile);
    void followNode(const QString& graphNode, const QString& buffer);
    void followModule(const QString& path);
    void mark(const Location& where);  // line 0 clears the mark
    void onCursorLine(const QString& file, int line);  // line 0-based, as the editor reports it
    bool selectNodeAt(const Location& where);  // the first node of the graph on show made there
    Location locationOf(const DrawnNode& node) const;  // line 0: an input, or made in no tab's file

    static constexpr int kMarker = 0;  // the selected node's line
    ScriptTabs* tabs_;
    SelectionContext* context_;
    QHash<QString, Location> locationOfNode_;  // captured node -> where it was made
    QStringList nodeOrder_;                    // those nodes in graph order
    QHash<QString, QString> classOfModule_;    // module path -> its class's name
};

}  // namespace fusescope::gui
