// The notes under script lines: graph breaks at the line of the script's innermost frame,
// recompiles at the function's line with the guard failures behind them and at the call
// that made them, script errors at their line; notes about other files are left out.
#include <QTest>

#include "gui_test_support.h"
#include "model/script_notes.h"

using namespace fusescope::gui;

namespace {

QStringList describe(const QList<ScriptNote>& notes) {
    QStringList out;
    for (const auto& n : notes) out << QString("%1:%2:%3").arg(int(n.kind)).arg(n.line).arg(n.text);
    return out;
}

}  // namespace

class ScriptNotesTest : public QObject {
    Q_OBJECT
private slots:
    void graphBreaksAreNotedAtTheirLines() {
        RunStore store;
        store.replace(test::loadFixture("graph_breaks"));
        QStringList notes = describe(scriptNotes(store, "resources/examples/02_graph_breaks.py"));
        QCOMPARE(notes.size(), 4);
        QCOMPARE(notes[0], QString("1:9:graph break (0/0): Failed to trace builtin operator"));
        QCOMPARE(notes[1], QString("1:15:graph break (1/0): Data-dependent branching"));
        QCOMPARE(notes[3].section(':', 0, 1), QString("1:29"));
        QVERIFY(scriptNotes(store, "other.py").isEmpty());
    }

    // Each recompile is noted twice: at the def, with the guard failures behind it, and at
    // the call that made it.
    void recompilesListTheirGuardFailuresAtTheDefAndTheCall() {
        RunStore store;
        store.replace(test::loadFixture("recompiles"));
        QStringList notes = describe(scriptNotes(store, "resources/examples/03_recompiles.py"));
        QCOMPARE(notes.size(), 6);
        QCOMPARE(notes[0], QString("2:6:recompiled as 0/1 by the call on line 13, because of guard failures:\n"
                                   "0/0: tensor 'L['a']' size mismatch at index 0. expected 3, actual 2"));
        QCOMPARE(notes[1], QString("2:13:this call recompiled add_four as 0/1 (defined on line 6)"));
        QCOMPARE(notes[4], QString("2:6:recompiled as 0/3 by the call on line 15, because of guard failures:\n"
                                   "0/2: tensor 'L['a']' dtype mismatch. expected Double, actual Float\n"
                                   "0/1: tensor 'L['a']' rank mismatch. expected 3, actual 2\n"
                                   "0/0: tensor 'L['a']' rank mismatch. expected 3, actual 2"));
        QCOMPARE(notes[5], QString("2:15:this call recompiled add_four as 0/3 (defined on line 6)"));
    }

    void scriptErrorsAreNotedAndMalformedEventsIgnored() {
        RunStore store;
        store.append({{"type", "error"}, {"message", "NameError: name 'y' is not defined"},
                      {"where", {{"file", "s.py"}, {"line", 4}, {"column", 1}}}});
        store.append({{"type", "error"}, {"message", "elsewhere"}, {"where", {{"file", "lib.py"}, {"line", 2}}}});
        store.append({{"type", "graph_break"}, {"user_stack", "not a list"}});
        store.append({{"type", "recompile"}, {"where", 3}});
        QCOMPARE(describe(scriptNotes(store, "s.py")), QStringList{"0:4:NameError: name 'y' is not defined"});
    }
};

QTEST_MAIN(ScriptNotesTest)
#include "script_notes_test.moc"
