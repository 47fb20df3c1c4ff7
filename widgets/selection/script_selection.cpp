#include "selection/script_selection.h"

#include <algorithm>

#include <QRegularExpression>
#include <Qsci/qsciscintilla.h>

#include "model/json_fields.h"

namespace fusescope::gui {

ScriptSelection::ScriptSelection(QsciScintilla* editor, SelectionContext* context, QObject* parent)
    : QObject(parent), editor_(editor), context_(context) {
    editor_->markerDefine(QsciScintilla::Background, kMarker);
    editor_->setMarkerBackgroundColor(QColor(255, 236, 179), kMarker);
    connect(editor_, &QsciScintilla::cursorPositionChanged, this, [this](int line, int) { onCursorLine(line); });
    connect(context_, &SelectionContext::compileShown, this, &ScriptSelection::followCompile);
    connect(context_, &SelectionContext::nodeChanged, this, &ScriptSelection::followNode);
    connect(context_, &SelectionContext::moduleChanged, this, &ScriptSelection::followModule);
}

namespace {

// The script line a captured node was made on (0: an input, or made elsewhere).
int scriptLineOf(const nlohmann::json& node, const QString& scriptFile) {
    if (!node.is_object() || qstringField(node, "op") == "placeholder" || qstringField(node, "file") != scriptFile) return 0;
    auto line = node.find("line");
    return line != node.end() && line->is_number_integer() ? line->get<int>() : 0;
}

}  // namespace

void ScriptSelection::followCompile(const CompileArtifacts& a) {
    lineOfNode_.clear();
    nodeOrder_.clear();
    classOfModule_.clear();
    if (!a.graph.contains("nodes") || !a.graph["nodes"].is_array()) return;
    for (const auto& node : a.graph["nodes"]) {
        if (auto stack = node.find("nn_module_stack"); stack != node.end() && stack->is_array())
            for (const auto& scope : *stack)
                if (scope.is_object()) classOfModule_.insert(qstringField(scope, "path"), qstringField(scope, "class"));
        if (int line = scriptLineOf(node, scriptFile_); line > 0) {
            lineOfNode_.insert(qstringField(node, "name"), line);
            nodeOrder_.append(qstringField(node, "name"));
        }
    }
}

void ScriptSelection::followNode(const QString& graphNode, const QString& buffer) {
    mark(lineOfNode_.value(graphNode.isEmpty() ? context_->provenance().graphNodesOf(buffer).value(0) : graphNode));
}

void ScriptSelection::followModule(const QString& path) {
    QString name = classOfModule_.value(path);
    if (name.isEmpty()) return;
    QRegularExpression definition("^[ \\t]*class\\s+" + QRegularExpression::escape(name) + "\\b", QRegularExpression::MultilineOption);
    QRegularExpressionMatch match = definition.match(editor_->text());
    if (match.hasMatch()) mark(editor_->text().left(match.capturedStart()).count('\n') + 1);
}

void ScriptSelection::mark(int line) {
    editor_->markerDeleteAll(kMarker);
    if (line > 0) {
        editor_->markerAdd(line - 1, kMarker);
        editor_->ensureLineVisible(line - 1);
    }
}

bool ScriptSelection::selectNodeOfLine(int line) {
    for (const QString& node : nodeOrder_)
        if (lineOfNode_.value(node) == line) {
            context_->selectGraphNode(node);
            return true;
        }
    return false;
}

void ScriptSelection::onCursorLine(int line) {
    if (lineOfNode_.value(context_->graphNode()) == line + 1) return;  // already one of this line's
    if (selectNodeOfLine(line + 1)) return;
    // A line of another graph of the compile (after a graph break) shows that graph.
    const CompileArtifacts& compile = context_->compile();
    for (const QString& graph : compile.graphNames) {
        if (graph == compile.graphName) continue;
        const nlohmann::json* captured = capturedGraph(context_->store(), compile.compileId, graph);
        if (!captured || !captured->contains("nodes") || !(*captured)["nodes"].is_array()) continue;
        const nlohmann::json& nodes = (*captured)["nodes"];
        if (std::any_of(nodes.begin(), nodes.end(), [&](const nlohmann::json& n) { return scriptLineOf(n, scriptFile_) == line + 1; })) {
            context_->setGraph(graph);  // followCompile now knows its lines
            selectNodeOfLine(line + 1);
            return;
        }
    }
}

}  // namespace fusescope::gui
