#include "selection/script_selection.h"

#include <algorithm>

#include <QRegularExpression>
#include <Qsci/qsciscintilla.h>

#include "views/script_tabs.h"

namespace fusescope::gui {

ScriptSelection::ScriptSelection(ScriptTabs* tabs, SelectionContext* context, QObject* parent)
    : QObject(parent), tabs_(tabs), context_(context) {
    connect(tabs_, &ScriptTabs::cursorLineChanged, this, &ScriptSelection::onCursorLine);
    connect(context_, &SelectionContext::compileShown, this, &ScriptSelection::followCompile);
    connect(context_, &SelectionContext::nodeChanged, this, &ScriptSelection::followNode);
    connect(context_, &SelectionContext::moduleChanged, this, &ScriptSelection::followModule);
}

ScriptSelection::Location ScriptSelection::locationOf(const DrawnNode& node) const {
    QString file = QString::fromStdString(node.file);
    if (node.op == "placeholder" || file.isEmpty() || !tabs_->editorOf(file)) return {};
    return {file, node.line};
}

void ScriptSelection::followCompile(const CompileArtifacts& a) {
    locationOfNode_.clear();
    nodeOrder_.clear();
    classOfModule_.clear();
    for (const DrawnNode& node : a.graph.nodes) {
        for (const ModuleScopeName& scope : node.moduleStack)
            classOfModule_.insert(QString::fromStdString(scope.path), QString::fromStdString(scope.className));
        if (Location where = locationOf(node); where.line > 0) {
            locationOfNode_.insert(QString::fromStdString(node.name), where);
            nodeOrder_.append(QString::fromStdString(node.name));
        }
    }
}

void ScriptSelection::followNode(const QString& graphNode, const QString& buffer) {
    mark(locationOfNode_.value(graphNode.isEmpty() ? context_->provenance().graphNodesOf(buffer).value(0) : graphNode));
}

void ScriptSelection::followModule(const QString& path) {
    QString name = classOfModule_.value(path);
    if (name.isEmpty()) return;
    QRegularExpression definition("^[ \\t]*class\\s+" + QRegularExpression::escape(name) + "\\b", QRegularExpression::MultilineOption);
    for (QsciScintilla* editor : tabs_->editors())  // the script's first
        if (QRegularExpressionMatch match = definition.match(editor->text()); match.hasMatch())
            return mark({tabs_->fileOf(editor), static_cast<int>(editor->text().left(match.capturedStart()).count('\n')) + 1});
}

void ScriptSelection::mark(const Location& where) {
    for (QsciScintilla* editor : tabs_->editors()) {
        editor->markerDefine(QsciScintilla::Background, kMarker);
        editor->setMarkerBackgroundColor(QColor(255, 236, 179), kMarker);
        editor->markerDeleteAll(kMarker);
    }
    QsciScintilla* editor = where.line > 0 ? tabs_->editorOf(where.file) : nullptr;
    if (!editor) return;
    editor->markerAdd(where.line - 1, kMarker);
    tabs_->setCurrentWidget(editor);
    editor->ensureLineVisible(where.line - 1);
}

bool ScriptSelection::selectNodeAt(const Location& where) {
    for (const QString& node : nodeOrder_)
        if (locationOfNode_.value(node) == where) {
            context_->selectGraphNode(node);
            return true;
        }
    return false;
}

void ScriptSelection::onCursorLine(const QString& file, int line) {
    const Location where{file, line + 1};
    if (locationOfNode_.value(context_->graphNode()) == where) return;  // already one of this line's
    if (selectNodeAt(where)) return;
    // A line of another graph of the compile (after a graph break) shows that graph.
    const CompileArtifacts& compile = context_->compile();
    for (const QString& graph : compile.graphNames) {
        if (graph == compile.graphName) continue;
        const std::vector<DrawnNode> nodes = capturedGraph(context_->store(), compile.compileId, graph).nodes;
        if (std::any_of(nodes.begin(), nodes.end(), [&](const DrawnNode& n) { return locationOf(n) == where; })) {
            context_->setGraph(graph);  // followCompile now knows its lines
            selectNodeAt(where);
            return;
        }
    }
}

}  // namespace fusescope::gui
