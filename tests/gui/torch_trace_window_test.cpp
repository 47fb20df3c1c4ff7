// The workbench opening what real PyTorch wrote (tests/fixtures/torch_trace, PyTorch 2.15):
// a TORCH_TRACE folder fills the compiles, graph, IR, graph breaks, guards and code panes as
// a run of our engine does, by File > Open's path or by dropping it on the window; a
// profiler's Chrome trace (with its execution trace beside it) fills the trace views.
#include <QApplication>
#include <QDropEvent>
#include <QTimer>
#include <QMessageBox>
#include <QMimeData>
#include <QTabWidget>
#include <Qsci/qsciscintilla.h>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTreeView>
#include <QUrl>

#include "gui_test_support.h"
#include "views/code_view.h"
#include "timeline/trace_view.h"
#include "views/graph_view.h"
#include "views/guards_view.h"
#include "window/main_window.h"

using namespace fusescope::gui;

namespace {

QString fixtureFolder(const char* name) {
    return QString::fromStdString(test::sourcePath(std::string("tests/fixtures/torch_trace/") + name));
}

QStringList compileIds(QTreeView* view) {
    QStringList ids;
    QAbstractItemModel* m = view->model();
    for (int f = 0; f < m->rowCount(); ++f)
        for (int c = 0; c < m->rowCount(m->index(f, 0)); ++c) ids << m->index(c, 0, m->index(f, 0)).data().toString();
    return ids;
}

}  // namespace

class TorchTraceWindowTest : public QObject {
    Q_OBJECT
private slots:
    void aFolderFillsThePanes() {
        MainWindow window(QString::fromStdString(test::cliPath()));
        QVERIFY(window.openFile(fixtureFolder("graph_breaks")));  // read on a worker thread
        QTRY_COMPARE(compileIds(window.compilesView()), (QStringList{"0/0", "1/0", "2/0", "3/0"}));
        QVERIFY2(window.statusText().startsWith("Opened PyTorch trace graph_breaks: 4 compiles, "), qPrintable(window.statusText()));
        QVERIFY(window.windowTitle().endsWith("dedicated_log_torch_trace_fixture.log (PyTorch trace)"));
        QCOMPARE(window.graphBreaksView()->model()->rowCount(), 2);
        // The program's path is the machine's that made the log: not here, and said so.
        QVERIFY(window.editor()->text().startsWith("# A TORCH_TRACE log of PyTorch 2.15.0+cu132: "));

        QCOMPARE(window.selection().compileId(), QString("0/0"));  // the first compile is on show
        QTRY_VERIFY_WITH_TIMEOUT(!window.graphView()->layoutPending() && window.graphView()->nodeCount() == 3, 10000);
        QVERIFY(window.cppView()->text().contains("cpp_fused_mul_sin_0 = async_compile.cpp_pybinding("));
        QCOMPARE(window.codeTabs()->tabText(window.codeTabs()->indexOf(window.cppView())), QString("Output code"));
        QCOMPARE(window.guardsView()->guardTable()->model()->rowCount(), 11);
        // PyTorch's graphs in the IR pane: what inductor got, and its post-grad graph.
        QVERIFY2(window.preFusionView()->text().startsWith("# ===== graph_0_0 aot_inference_graph =====\n"), qPrintable(window.preFusionView()->text().left(200)));
        QVERIFY(window.postFusionView()->text().contains("# ===== graph_0_0 inductor_post_grad_graph =====\n"));
        QVERIFY(window.postFusionView()->text().contains("torch.ops.aten.sin.default"));
    }

    void droppingALogOpensIt() {
        MainWindow window(QString::fromStdString(test::cliPath()));
        QMimeData data;
        data.setUrls({QUrl::fromLocalFile(fixtureFolder("recompiles") + "/dedicated_log_torch_trace_fixture.log")});
        auto accepts = [&](const QString& path) {
            QMimeData offered;
            offered.setUrls({QUrl::fromLocalFile(path)});
            QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &offered, Qt::LeftButton, Qt::NoModifier);
            enter.ignore();
            static_cast<QObject&>(window).event(&enter);  // straight to the handlers: QApplication drops synthetic drag events
            return enter.isAccepted();
        };
        QVERIFY(accepts(fixtureFolder("recompiles")));
        QVERIFY(accepts(fixtureFolder("recompiles") + "/dedicated_log_torch_trace_fixture.log"));
        QVERIFY(!accepts(fixtureFolder("README.md")));
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
        static_cast<QObject&>(window).event(&drop);
        QTRY_COMPARE(compileIds(window.compilesView()), (QStringList{"0/0", "0/1", "0/2", "0/3"}));
    }

    void aProfilerChromeTraceFillsTheTraceViews() {
        MainWindow window(QString::fromStdString(test::cliPath()));
        QVERIFY(window.openFile(fixtureFolder("profiled") + "/chrome_trace.json"));
        QCOMPARE(window.store().traces().size(), size_t(24));
        QVERIFY2(window.statusText() == "Opened profiler trace chrome_trace.json: 24 spans", qPrintable(window.statusText()));
        QVERIFY2(window.editor()->text().contains("execution_trace.json describes 24 of them"), qPrintable(window.editor()->text()));
        QTRY_VERIFY_WITH_TIMEOUT(!window.traceView()->indexPending() && window.traceView()->spans(), 10000);
        QCOMPARE(window.traceView()->spans()->spans.size(), size_t(24));
    }

    void aFolderWithoutALogSaysSoAndKeepsTheWindow() {
        MainWindow window(QString::fromStdString(test::cliPath()));
        QVERIFY(window.openFile(fixtureFolder("programs")));
        // The message box is modal: close it as a user would (a timer runs within its loop).
        QString said;
        QTimer closer;
        connect(&closer, &QTimer::timeout, [&] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                said = box->text();
                box->close();
            }
        });
        closer.start(20);
        QTRY_VERIFY2(window.statusText().startsWith("Cannot open "), qPrintable(window.statusText()));
        QVERIFY2(said.endsWith("holds no TORCH_TRACE log (dedicated_log_torch_trace_*.log)"), qPrintable(said));
        QCOMPARE(compileIds(window.compilesView()), QStringList{});
    }
};

QTEST_MAIN(TorchTraceWindowTest)
#include "torch_trace_window_test.moc"
