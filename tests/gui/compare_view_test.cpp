// The Compare view on 03_recompiles run with inductor (tests/gui/fixtures/recompiles_inductor.jsonl,
// four compiles of add_four: float32 [3, 4, 5], [2, 4, 5], float64, then rank 2): it compares
// the last two compiles by default and follows new ones until the user picks, each aspect's
// summary is exact, the diff shows removed and added lines, and a compile without the
// aspect (the eager run) says so.
#include <QComboBox>
#include <QTest>

#include "gui_test_support.h"
#include "panes/compare_pane.h"
#include "selection/selection_context.h"
#include "views/code_view.h"
#include "views/compare_view.h"

using namespace fusescope::gui;
using Aspect = CompareView::Aspect;

namespace {

QStringList items(const QComboBox& box) {
    QStringList out;
    for (int i = 0; i < box.count(); ++i) out << box.itemText(i);
    return out;
}

nlohmann::json compileStarted(const char* id) { return {{"type", "compile_started"}, {"compile_id", id}, {"function", "g"}}; }

}  // namespace

class CompareViewTest : public QObject {
    Q_OBJECT
private slots:
    void defaultsToTheLastTwoCompilesWhileARunGoesOn() {
        RunStore store;
        CompareView view(&store);
        QCOMPARE(view.summary(), QString("No compiles to compare yet"));
        view.setAspect(Aspect::Cpp);  // its texts come last of a compile's
        for (const auto& e : test::loadFixture("recompiles_inductor")) {
            store.append(e);
            if (e.value("type", "") == "guards" && e.value("compile_id", "") == "0/0") {  // one compile: not compared with itself
                QCOMPARE(view.summary(), QString("Only 0/0 so far: a second compile (a recompile, another function) is needed to compare"));
                QCOMPARE(view.diffView()->text(), QString());
            }
            if (e.value("type", "") == "compile_started" && e.value("compile_id", "") == "0/1") {
                QCOMPARE(view.beforeCompile(), QString("0/0"));
                QCOMPARE(view.afterCompile(), QString("0/1"));
            }
        }
        QCOMPARE(items(*view.beforeBox()), (QStringList{"0/0  add_four", "0/1  add_four", "0/2  add_four", "0/3  add_four"}));
        QCOMPARE(view.beforeCompile(), QString("0/2"));
        QCOMPARE(view.afterCompile(), QString("0/3"));
        QCOMPARE(view.summary(), QString("Lines added: 11, removed: 11"));
    }

    // The Compare pane follows the selection: a recompile picked anywhere is compared with the
    // compile before it; a frame's first compile leaves the pickers as they are.
    void aSelectedRecompileIsComparedWithTheCompileBeforeIt() {
        RunStore store;
        store.replace(test::loadFixture("recompiles_inductor"));
        SelectionContext selection(&store);
        ComparePane pane(&selection);
        CompareView* view = pane.view();
        QCOMPARE(view->beforeCompile() + " " + view->afterCompile(), QString("0/2 0/3"));
        selection.setCompileId("0/1");
        QCOMPARE(view->beforeCompile() + " " + view->afterCompile(), QString("0/0 0/1"));
        selection.setCompileId("0/2");
        QCOMPARE(view->beforeCompile() + " " + view->afterCompile(), QString("0/1 0/2"));
        selection.setCompileId("0/0");
        QCOMPARE(view->beforeCompile() + " " + view->afterCompile(), QString("0/1 0/2"));
        view->setAspect(Aspect::Guards);
        QCOMPARE(view->summary(), QString("Lines added: 1, removed: 1"));
    }

    void eachAspectHasItsSummary() {
        RunStore store;
        store.replace(test::loadFixture("recompiles_inductor"));
        CompareView view(&store);
        const std::pair<Aspect, const char*> expected[] = {
            {Aspect::GraphCode, "Lines added: 3, removed: 3"},      // the graph's name, its input's and output's shape
            {Aspect::Guards, "Lines added: 1, removed: 1"},         // the one tensor guard
            {Aspect::PreFusionIr, "Lines added: 9, removed: 9"},
            {Aspect::PostFusionIr, "Lines added: 9, removed: 9"},
            {Aspect::Cpp, "Lines added: 11, removed: 11"},
        };
        for (const auto& [aspect, summary] : expected) {
            view.setAspect(aspect);
            QCOMPARE(view.aspect(), aspect);
            QCOMPARE(view.summary(), QString(summary));
        }
        view.setAspect(Aspect::Guards);
        view.setCompiles("0/3", "0/3");  // a compile is not compared with itself
        QCOMPARE(view.summary(), QString("Both sides are 0/3: pick another compile on one of them"));
        QCOMPARE(view.diffView()->text(), QString());
    }

    void theDiffMarksRemovedThenAddedLines() {
        RunStore store;
        store.replace(test::loadFixture("recompiles_inductor"));
        CompareView view(&store);
        view.setAspect(Aspect::Guards);
        view.setCompiles("0/0", "0/1");
        QCOMPARE(view.summary(), QString("Lines added: 1, removed: 1"));
        const QString guard = "check_tensor(L['a'], torch.float32, device=cpu, requires_grad=False, size=[%1], stride=[20, 5, 1])"
                              "  # return torch.add(a, 4)";
        QCOMPARE(view.diffView()->text(), "- " + guard.arg("3, 4, 5") + "\n+ " + guard.arg("2, 4, 5"));
        view.setAspect(Aspect::GraphCode);
        QVERIFY(view.diffView()->text().contains("\n-     def forward(self, l_a_: \"f32[3, 4, 5]\"):\n"
                                                 "+     def forward(self, l_a_: \"f32[2, 4, 5]\"):\n"));
    }

    void aPickStaysUntilTheRunIsReplaced() {
        RunStore store;
        const auto events = test::loadFixture("recompiles_inductor");
        store.replace(events);
        CompareView view(&store);
        view.setCompiles("0/0", "0/2");
        store.append(compileStarted("0/4"));
        QCOMPARE(view.beforeCompile(), QString("0/0"));
        QCOMPARE(view.afterCompile(), QString("0/2"));
        QCOMPARE(view.afterBox()->count(), 5);
        store.replace(events);
        QCOMPARE(view.beforeCompile(), QString("0/2"));
        QCOMPARE(view.afterCompile(), QString("0/3"));
        store.append(compileStarted("0/4"));
        QCOMPARE(view.beforeCompile(), QString("0/3"));
        QCOMPARE(view.afterCompile(), QString("0/4"));
    }

    void anAspectNeitherCompileHasIsNamed() {
        RunStore store;
        store.replace(test::loadFixture("recompiles"));  // the eager backend: no IR, no C++
        CompareView view(&store);
        view.setAspect(Aspect::PreFusionIr);
        QCOMPARE(view.summary(), QString("IR before fusion: none in 0/2 or 0/3"));
        QCOMPARE(view.diffView()->text(), QString());
    }
};

QTEST_MAIN(CompareViewTest)
#include "compare_view_test.moc"
