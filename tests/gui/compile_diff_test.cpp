// The Compare view's line diff: exact hunks (kind, where they start in each text, lines) for
// small known inputs, and the guards diff of the recorded 03_recompiles run, which names
// just the changed size.
#include <QTest>

#include "gui_test_support.h"
#include "model/compile_diff.h"
#include "model/guards_model.h"

using namespace fusescope::gui;

namespace {

// "-2,2: b | c": a hunk's kind (= kept, - removed, + added), its first line in the before and
// the after text, and its lines.
QStringList hunks(const QStringList& before, const QStringList& after) {
    QStringList out;
    for (const DiffHunk& h : diffLines(before, after).hunks) {
        const char* kind = h.kind == DiffHunk::Kind::Removed ? "-" : h.kind == DiffHunk::Kind::Added ? "+" : "=";
        out << QString("%1%2,%3: %4").arg(kind).arg(h.beforeLine).arg(h.afterLine).arg(h.lines.join(" | "));
    }
    return out;
}

QStringList guardTexts(const RunStore& store, const QString& compileId) {
    QStringList texts;
    for (const GuardEntry& g : compileGuards(store, compileId)) texts << g.text;
    return texts;
}

}  // namespace

class CompileDiffTest : public QObject {
    Q_OBJECT
private slots:
    void identicalTextsAreOneEqualHunk() {
        QCOMPARE(hunks({"a", "b"}, {"a", "b"}), QStringList{"=1,1: a | b"});
        LineDiff d = diffLines({"a", "b"}, {"a", "b"});
        QCOMPARE(d.added, 0);
        QCOMPARE(d.removed, 0);
    }

    void pureInsert() {
        QCOMPARE(hunks({"a", "c"}, {"a", "b", "c"}), (QStringList{"=1,1: a", "+2,2: b", "=2,3: c"}));
        QCOMPARE(hunks({"a"}, {"a", "b", "c"}), (QStringList{"=1,1: a", "+2,2: b | c"}));
        QCOMPARE(hunks({"c"}, {"a", "b", "c"}), (QStringList{"+1,1: a | b", "=1,3: c"}));
    }

    void pureDelete() {
        QCOMPARE(hunks({"a", "b", "c"}, {"a", "c"}), (QStringList{"=1,1: a", "-2,2: b", "=3,2: c"}));
        QCOMPARE(hunks({"a", "b", "c"}, {"c"}), (QStringList{"-1,1: a | b", "=3,1: c"}));
    }

    void aChangeRemovesBeforeItAdds() {
        QCOMPARE(hunks({"a", "b", "c"}, {"a", "x", "c"}), (QStringList{"=1,1: a", "-2,2: b", "+3,2: x", "=3,3: c"}));
        // The before text longer than the after one (dtl swaps them inside): still removed first.
        QCOMPARE(hunks({"a", "b", "c", "d", "e"}, {"a", "x", "e"}),
                 (QStringList{"=1,1: a", "-2,2: b | c | d", "+5,2: x", "=5,3: e"}));
        LineDiff d = diffLines({"a", "b", "c", "d", "e"}, {"a", "x", "e"});
        QCOMPARE(d.added, 1);
        QCOMPARE(d.removed, 3);
    }

    void emptySides() {
        QCOMPARE(hunks({}, {}), QStringList{});
        QCOMPARE(hunks({}, {"a", "b"}), QStringList{"+1,1: a | b"});
        QCOMPARE(hunks({"a"}, {}), QStringList{"-1,1: a"});
    }

    void textLinesEndAtAFinalNewline() {
        QCOMPARE(textLines(""), QStringList{});
        QCOMPARE(textLines("a\nb\n"), (QStringList{"a", "b"}));
        QCOMPARE(textLines("a\nb"), (QStringList{"a", "b"}));
        QCOMPARE(textLines("\n\n"), (QStringList{"", ""}));
    }

    void guardsOfARecompileDifferInTheSizeLine() {
        RunStore store;
        store.replace(test::loadFixture("recompiles"));
        const QString suffix = "stride=[20, 5, 1])  # return torch.add(a, 4)";
        QCOMPARE(hunks(guardTexts(store, "0/0"), guardTexts(store, "0/1")),
                 (QStringList{"-1,1: check_tensor(L['a'], torch.float32, device=cpu, requires_grad=False, size=[3, 4, 5], " + suffix,
                              "+2,1: check_tensor(L['a'], torch.float32, device=cpu, requires_grad=False, size=[2, 4, 5], " + suffix}));
    }
};

QTEST_MAIN(CompileDiffTest)
#include "compile_diff_test.moc"
