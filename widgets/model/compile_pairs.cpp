#include "model/compile_pairs.h"

#include <algorithm>
#include <tuple>

#include <QFileInfo>
#include <QRegularExpression>

#include "model/guards_model.h"

namespace fusescope::gui {

namespace {

QString q(const std::string& text) { return QString::fromStdString(text); }

// "0/1", "1/0_1", "!ca/0/2": compiled autograd after the rest, then frame, compile, attempt.
std::tuple<bool, int, int, int> orderOf(const QString& compileId) {
    static const QRegularExpression parts(R"((\d+)/(\d+)(?:_(\d+))?$)");
    QRegularExpressionMatch m = parts.match(compileId);
    return {compileId.startsWith('!'), m.captured(1).toInt(), m.captured(2).toInt(), m.captured(3).toInt()};
}

QStringList compileIds(const RunStore& store) {
    QStringList ids;
    for (const Event& e : store.events())
        if (const auto* started = std::get_if<CompileStartedEvent>(&e)) ids << q(started->compileId);
    return ids;
}

void addCode(QString& text, const std::string& header, const std::string& code, bool several) {
    if (code.empty()) return;
    if (several) text += q("# ===== " + header + " =====\n");
    text += q(code);
    if (!text.endsWith('\n')) text += '\n';
}

}  // namespace

bool CompilePair::countsDiffer() const {
    return !ours.present || !torch.present || ours.graphs != torch.graphs || ours.ops != torch.ops ||
           ours.guards.size() != torch.guards.size() || ours.graphBreaks.size() != torch.graphBreaks.size() ||
           ours.kernels != torch.kernels;
}

CompileSide compileSide(const RunStore& store, const QString& compileId) {
    CompileSide side;
    const std::vector<int>& indices = store.compileEvents(compileId.toStdString());
    int graphEvents = 0, codeEvents = 0;  // with several, each text gets a header
    for (int i : indices) {
        graphEvents += std::holds_alternative<GraphCapturedEvent>(store.at(i));
        codeEvents += std::holds_alternative<KernelSourceEvent>(store.at(i));
    }
    for (int i : indices) {
        const Event& e = store.at(i);
        if (const auto* started = std::get_if<CompileStartedEvent>(&e)) {
            side.present = true;
            side.function = q(started->function);
        } else if (const auto* graph = std::get_if<GraphCapturedEvent>(&e)) {
            ++side.graphs;
            side.ops += graph->opCount;
            addCode(side.graphCode, graph->graphName, graph->readable, graphEvents > 1);
        } else if (const auto* kernel = std::get_if<KernelSourceEvent>(&e)) {
            side.kernels += static_cast<int>(kernel->kernels.size());
            addCode(side.code, kernel->graph, kernel->source, codeEvents > 1);
        } else if (const auto* graphBreak = std::get_if<GraphBreakEvent>(&e)) {
            QString text = q(graphBreak->reason.substr(0, graphBreak->reason.find('\n')));
            if (!graphBreak->userStack.empty()) {
                const StackFrame& frame = graphBreak->userStack.back();
                text += QString(" (%1:%2)").arg(QFileInfo(q(frame.file)).fileName()).arg(frame.line);
            }
            side.graphBreaks << text;
        } else if (const auto* recompile = std::get_if<RecompileEvent>(&e)) {
            for (const QString& line : q(recompile->message).split('\n'))
                if (line.startsWith("    - ")) side.recompileReasons << line.mid(6);
        }
    }
    for (const GuardEntry& guard : compileGuards(store, compileId)) side.guards << guard.check.trimmed();
    return side;
}

std::vector<CompilePair> pairCompiles(const RunStore& ours, const RunStore& torch) {
    QStringList ids = compileIds(ours);
    for (const QString& id : compileIds(torch))
        if (!ids.contains(id)) ids << id;
    std::stable_sort(ids.begin(), ids.end(), [](const QString& a, const QString& b) { return orderOf(a) < orderOf(b); });
    std::vector<CompilePair> pairs;
    for (const QString& id : ids) pairs.push_back({id, compileSide(ours, id), compileSide(torch, id)});
    return pairs;
}

}  // namespace fusescope::gui
