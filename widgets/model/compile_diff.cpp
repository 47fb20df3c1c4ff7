#include "model/compile_diff.h"

#include <dtl/dtl.hpp>

namespace fusescope::gui {

namespace {

DiffHunk::Kind kindOf(dtl::edit_t type) {
    if (type == dtl::SES_DELETE) return DiffHunk::Kind::Removed;
    if (type == dtl::SES_ADD) return DiffHunk::Kind::Added;
    return DiffHunk::Kind::Equal;
}

}  // namespace

QStringList textLines(const QString& text) {
    QStringList lines = text.split('\n');
    if (text.isEmpty() || text.endsWith('\n')) lines.removeLast();
    return lines;
}

LineDiff diffLines(const QStringList& before, const QStringList& after) {
    using Lines = std::vector<QString>;
    constexpr bool deletesFirst = true;  // a change's removed lines before its added ones
    dtl::Diff<QString, Lines> script(Lines(before.begin(), before.end()), Lines(after.begin(), after.end()), deletesFirst);
    script.compose();
    LineDiff diff;
    int beforeLine = 1, afterLine = 1;
    for (const auto& [line, info] : script.getSes().getSequence()) {
        DiffHunk::Kind kind = kindOf(info.type);
        if (diff.hunks.empty() || diff.hunks.back().kind != kind) diff.hunks.push_back({kind, beforeLine, afterLine, {}});
        diff.hunks.back().lines << line;
        if (kind != DiffHunk::Kind::Added) ++beforeLine;
        if (kind != DiffHunk::Kind::Removed) ++afterLine;
        if (kind == DiffHunk::Kind::Added) ++diff.added;
        if (kind == DiffHunk::Kind::Removed) ++diff.removed;
    }
    return diff;
}

}  // namespace fusescope::gui
