#include "model/compile_provenance.h"

#include <algorithm>
#include <climits>

#include <QRegularExpression>

namespace fusescope::gui {

namespace {

QStringList qstrings(const std::vector<std::string>& strings) {
    QStringList out;
    for (const std::string& s : strings) out << QString::fromStdString(s);
    return out;
}

QList<SchedulerNodeInfo> nodeInfos(const IrDumpEvent& event) {
    QList<SchedulerNodeInfo> out;
    for (const IrNodeInfo& n : event.nodes)
        if (!n.name.empty())
            out.append({QString::fromStdString(n.name), QString::fromStdString(n.kind), qstrings(n.origins), qstrings(n.reads),
                        qstrings(n.members), QString::fromStdString(n.realizedBecause)});
    return out;
}

// A line of an event's range moved down by offset, kept within int: a bundle made elsewhere
// may hold any number there (the views clamp ranges to their documents).
int shiftedLine(int line, int offset) {
    return static_cast<int>(std::clamp<int64_t>(int64_t{line} + offset, INT_MIN, INT_MAX));
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

void CompileProvenance::addPreFusion(const IrDumpEvent& event, int lineOffset) {
    pre_ = nodeInfos(event);
    preIndex_.clear();
    bufferOfNode_.clear();
    for (qsizetype i = 0; i < pre_.size(); ++i) {
        preIndex_.insert(pre_[i].name, i);
        for (const QString& origin : pre_[i].origins)
            if (!bufferOfNode_.contains(origin)) bufferOfNode_.insert(origin, pre_[i].name);
    }
    preLines_ = shifted(irDumpBlocks(QString::fromStdString(event.text)), lineOffset);
}

void CompileProvenance::addPostFusion(const IrDumpEvent& event, int lineOffset) {
    post_ = nodeInfos(event);
    postIndex_.clear();
    groupOfMember_.clear();
    for (qsizetype i = 0; i < post_.size(); ++i) {
        postIndex_.insert(post_[i].name, i);
        for (const QString& member : post_[i].members) groupOfMember_.insert(member, post_[i].name);
    }
    postLines_ = shifted(irDumpBlocks(QString::fromStdString(event.text)), lineOffset);
}

void CompileProvenance::addKernelSource(const KernelSourceEvent& event, int lineOffset) {
    for (const auto& [buffer, ranges] : event.bufferLines) {
        LineRanges& out = cppLines_[QString::fromStdString(buffer)];
        for (const auto& [first, last] : ranges) out.append({shiftedLine(first, lineOffset), shiftedLine(last, lineOffset)});
    }
    for (const auto& [buffer, kernel] : event.bufferKernels) kernels_[QString::fromStdString(buffer)] = QString::fromStdString(kernel);
}

const SchedulerNodeInfo* CompileProvenance::preNode(const QString& name) const {
    auto it = preIndex_.find(name);
    return it == preIndex_.end() ? nullptr : &pre_[*it];
}

const SchedulerNodeInfo* CompileProvenance::postNode(const QString& name) const {
    auto it = postIndex_.find(name);
    return it == postIndex_.end() ? nullptr : &post_[*it];
}

QString CompileProvenance::bufferOfGraphNode(const QString& node) const { return bufferOfNode_.value(node); }

QStringList CompileProvenance::graphNodesOf(const QString& buffer) const {
    for (const SchedulerNodeInfo* n : {preNode(buffer), postNode(buffer)})
        if (n) return n->origins;
    return {};
}

QString CompileProvenance::fusedNodeOf(const QString& buffer) const {
    if (postNode(buffer)) return buffer;
    return groupOfMember_.value(buffer);
}

QString CompileProvenance::kernelOf(const QString& buffer) const {
    if (const SchedulerNodeInfo* n = postNode(buffer); n && !n->members.isEmpty()) return kernels_.value(n->members.first());
    return kernels_.value(buffer);
}

QString CompileProvenance::realizedBecause(const QString& buffer) const {
    const SchedulerNodeInfo* n = preNode(buffer);
    return n ? n->realizedBecause : QString();
}

LineRanges CompileProvenance::cppLines(const QString& buffer) const {
    if (const SchedulerNodeInfo* n = postNode(buffer); n && !n->members.isEmpty()) {
        LineRanges all;
        for (const auto& m : n->members) all += cppLines_.value(m);
        std::sort(all.begin(), all.end());
        return all;
    }
    return cppLines_.value(buffer);
}

QString CompileProvenance::bufferAtCppLine(int line) const {
    for (const auto& n : pre_)
        if (contains(cppLines_.value(n.name), line)) return n.name;
    // PyTorch's output code: the post-grad nodes its kernels compute (no scheduler nodes); the
    // first by name of those a kernel's lines share.
    QString first;
    for (auto it = cppLines_.begin(); it != cppLines_.end(); ++it)
        if (!preNode(it.key()) && contains(it.value(), line) && (first.isEmpty() || it.key() < first)) first = it.key();
    return first;
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
