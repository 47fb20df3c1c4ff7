#include "model/compile_provenance.h"

#include <algorithm>
#include <climits>

#include <QRegularExpression>

#include "model/json_fields.h"

namespace fusescope::gui {

namespace {

QStringList stringList(const nlohmann::json& object, const char* key) {
    QStringList out;
    auto it = object.find(key);
    if (it == object.end() || !it->is_array()) return out;
    for (const auto& v : *it)
        if (v.is_string()) out << QString::fromStdString(v.get<std::string>());
    return out;
}

QList<SchedulerNodeInfo> nodeInfos(const nlohmann::json& event) {
    QList<SchedulerNodeInfo> out;
    auto nodes = event.find("nodes");
    if (nodes == event.end() || !nodes->is_array()) return out;
    for (const auto& n : *nodes) {
        if (!n.is_object() || qstringField(n, "name").isEmpty()) continue;
        out.append({qstringField(n, "name"), qstringField(n, "kind"), stringList(n, "origins"), stringList(n, "reads"),
                    stringList(n, "members")});
    }
    return out;
}

// A line of an event's range moved down by offset, kept within int: a bundle made elsewhere
// may hold any number there (the views clamp ranges to their documents).
int shiftedLine(int64_t line, int offset) {
    return static_cast<int>(std::clamp<int64_t>(std::clamp<int64_t>(line, INT_MIN, INT_MAX) + offset, INT_MIN, INT_MAX));
}

QHash<QString, LineRanges> shifted(QHash<QString, LineRanges> blocks, int offset) {
    for (auto& ranges : blocks)
        for (auto& r : ranges) r = {r.first + offset, r.second + offset};
    return blocks;
}

bool contains(const LineRanges& ranges, int line) {
    for (const auto& [first, last] : ranges)
        if (first <= line && line <= last) return true;
    return false;
}

}  // namespace

QHash<QString, LineRanges> irDumpBlocks(const QString& text) {
    static const QRegularExpression header(R"(^(\w+): \w*SchedulerNode\b)");
    static const QRegularExpression snodes(R"(^\w+\.snodes\[\d+\] =$)");
    const QStringList lines = text.split('\n');
    struct Block {
        QString name;
        int first;
        bool member;  // a fused node's member, nested in its block
    };
    QList<Block> blocks;
    QList<int> breaks;  // "snodes[i] =" lines: a member block ends before them
    for (int i = 0; i < lines.size(); ++i) {
        if (auto m = header.match(lines[i]); m.hasMatch())
            blocks.append({m.captured(1), i, i > 0 && snodes.match(lines[i - 1]).hasMatch()});
        else if (snodes.match(lines[i]).hasMatch())
            breaks.append(i);
    }
    QHash<QString, LineRanges> out;
    for (int b = 0; b < blocks.size(); ++b) {
        int end = static_cast<int>(lines.size());  // exclusive
        // A group's block holds its members' blocks; a member's ends at the next "snodes".
        for (int n = b + 1; n < blocks.size(); ++n)
            if (blocks[b].member || !blocks[n].member) {
                end = blocks[n].first;
                break;
            }
        if (blocks[b].member)
            for (int s : breaks)
                if (s > blocks[b].first && s < end) end = s;
        while (end > blocks[b].first + 1 && lines[end - 1].trimmed().isEmpty()) --end;
        if (!out.contains(blocks[b].name)) out[blocks[b].name] = {{blocks[b].first + 1, end}};
    }
    return out;
}

void CompileProvenance::addPreFusion(const nlohmann::json& event, int lineOffset) {
    pre_ = nodeInfos(event);
    preLines_ = shifted(irDumpBlocks(qstringField(event, "text")), lineOffset);
}

void CompileProvenance::addPostFusion(const nlohmann::json& event, int lineOffset) {
    post_ = nodeInfos(event);
    postLines_ = shifted(irDumpBlocks(qstringField(event, "text")), lineOffset);
}

void CompileProvenance::addKernelSource(const nlohmann::json& event, int lineOffset) {
    auto lines = event.find("buffer_lines");
    if (lines != event.end() && lines->is_object())
        for (const auto& [buffer, ranges] : lines->items()) {
            if (!ranges.is_array()) continue;
            LineRanges& out = cppLines_[QString::fromStdString(buffer)];
            for (const auto& r : ranges)
                if (r.is_array() && r.size() == 2 && r[0].is_number_integer() && r[1].is_number_integer())
                    out.append({shiftedLine(r[0].get<int64_t>(), lineOffset), shiftedLine(r[1].get<int64_t>(), lineOffset)});
        }
    auto kernels = event.find("buffer_kernels");
    if (kernels != event.end() && kernels->is_object())
        for (const auto& [buffer, kernel] : kernels->items())
            if (kernel.is_string()) kernels_[QString::fromStdString(buffer)] = QString::fromStdString(kernel.get<std::string>());
}

QString CompileProvenance::bufferOfGraphNode(const QString& node) const {
    for (const auto& n : pre_)
        if (n.origins.contains(node)) return n.name;
    return {};
}

QStringList CompileProvenance::graphNodesOf(const QString& buffer) const {
    for (const auto* list : {&pre_, &post_})
        for (const auto& n : *list)
            if (n.name == buffer) return n.origins;
    return {};
}

QString CompileProvenance::fusedNodeOf(const QString& buffer) const {
    for (const auto& n : post_)
        if (n.name == buffer || n.members.contains(buffer)) return n.name;
    return {};
}

QString CompileProvenance::kernelOf(const QString& buffer) const {
    for (const auto& n : post_)
        if (n.name == buffer && !n.members.isEmpty()) return kernels_.value(n.members.first());
    return kernels_.value(buffer);
}

LineRanges CompileProvenance::cppLines(const QString& buffer) const {
    for (const auto& n : post_)
        if (n.name == buffer && !n.members.isEmpty()) {
            LineRanges all;
            for (const auto& m : n.members) all += cppLines_.value(m);
            std::sort(all.begin(), all.end());
            return all;
        }
    return cppLines_.value(buffer);
}

QString CompileProvenance::bufferAtCppLine(int line) const {
    for (const auto& n : pre_)
        if (contains(cppLines_.value(n.name), line)) return n.name;
    return {};
}

QString CompileProvenance::nodeAt(const QHash<QString, LineRanges>& blocks, int line) {
    QString best;
    int bestSize = 0;
    for (auto it = blocks.begin(); it != blocks.end(); ++it)
        for (const auto& [first, last] : it.value())
            if (first <= line && line <= last && (best.isEmpty() || last - first < bestSize)) {
                best = it.key();
                bestSize = last - first;
            }
    return best;
}

}  // namespace fusescope::gui
