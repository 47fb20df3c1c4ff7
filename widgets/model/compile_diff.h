#pragma once
// A line diff of two texts (two compiles' graph code, guards or IR), for the Compare view:
// the shortest edit script from dtl (Wu, Manber and Myers' O(NP) algorithm), grouped into
// hunks of equal, removed and added lines. Within a change the removed lines come first,
// as a unified diff prints them.

#include <vector>

#include <QStringList>

namespace fusescope::gui {

struct DiffHunk {
    enum class Kind { Equal, Removed, Added };
    Kind kind = Kind::Equal;
    int beforeLine = 1;  // 1-based line of the before text where the hunk starts (or would)
    int afterLine = 1;   // the same in the after text
    QStringList lines;

    bool operator==(const DiffHunk&) const = default;
};

struct LineDiff {
    std::vector<DiffHunk> hunks;
    int added = 0, removed = 0;  // lines
};

// A text's lines; a final newline ends the last line rather than starting an empty one.
QStringList textLines(const QString& text);

LineDiff diffLines(const QStringList& before, const QStringList& after);

}  // namespace fusescope::gui
