#include "selection/script_selection.h"

#include <algorithm>

#include <QRegularExpression>
#include <Qsci/qsciscintilla.h>

#include "model/json_fields.h"
#include "views/script_tabs.h"

namespace fusescope::gui {

ScriptSelection::ScriptSelection(ScriptTabs* tabs, SelectionContext* context, QObject* parent)
    : QObject(parent), tabs_(tabs), context_(context) {
    connect(tabs_, &ScriptTabs::cursorLineChanged, this, &ScriptSelection::onCursorLine);
    connect(context_, &SelectionContext::compileShown, this, &ScriptSelection::followCompile);
    connect(context_, &SelectionContext::nodeChanged, this, &ScriptSelection::followNode);
    connect(context_, &SelectionContext::moduleChanged, this, &ScriptSelection::followModule);
}

ScriptSelection::Location ScriptSelection::locationOf(const nlohmann::json& node) const {
    if (!node.is_object() || qstringField(node, "op") == "placeholder") return {};
    QString file = qstringField(node, "file");
    auto line = node.find("line");
    if (file.isEmpty() || !tabs_->editorOf(file) || line == node.end() || !line->is_number_integer()) return {};
    return {file, line->get<int>()};
}

void ScriptSelection::followCompile(const CompileArtifacts& a) {
    locationOfNode_.clear();
    nodeOrder_.clear();
    classOfModule_.clear();
    if (!a.graph.contains("nodes") || !a.graph["nodes"].is_array()) return;
    for (const auto& node : a.graph["nodes"]) {
        if (auto stack = node.find("nn_module_stack"); stack != node.end() && stack->is_array())
            for (const auto& scope : *stack)
                if (scope.is_object()) classOfModule_.insert(qstringField(scope, "path"), qstringField(scope, "class"));
        if (Location where = locationOf(node); where.line > 0) {
            locationOfNode_.insert(qstringField(node, "name"), where);
            nodeOrder_.append(qstringField(node, "name"));
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
        const nlohmann::json* captured = capturedGraph(context_->store(), compile.compileId, graph);
        if (!captured || !captured->contains("nodes") || !(*captured)["nodes"].is_array()) continue;
        const nlohmann::json& nodes = (*captured)["nodes"];
        if (std::any_of(nodes.begin(), nodes.end(), [&](const nlohmann::json& n) { return locationOf(n) == where; })) {
            context_->setGraph(graph);  // followCompile now knows its lines
            selectNodeAt(where);
            return;
        }
    }
}

}  // namespace fusescope::gui
