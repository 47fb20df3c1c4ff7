// The Execution Trace views on a recorded traced run (tests/gui/fixtures/traced_run.py:
// a compiled function called under two record_function annotations): the span index, the
// tree, the timeline's hit-testing, zoom, pan and selection, the link between the two, and
// painting a million sub-pixel spans as pixel columns.
#include <QAbstractItemModelTester>
#include <QImage>
#include <QPainter>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>
#include <QWheelEvent>

#include "gui_test_support.h"
#include "timeline/timeline_view.h"
#include "timeline/trace_tree_model.h"
#include "timeline/trace_view.h"

using namespace fusescope::gui;

namespace {

std::shared_ptr<const TraceSpans> indexOf(const RunStore& store) {
    return std::make_shared<TraceSpans>(indexTraceSpans(store.traces().records(), store.traces().names()));
}

QStringList childNames(const TraceTreeModel& model, const QModelIndex& parent) {
    QStringList out;
    for (int r = 0; r < model.rowCount(parent); ++r) out << model.index(r, 0, parent).data().toString();
    return out;
}

int32_t firstSpanNamed(const TraceSpans& spans, const std::string& name) {
    for (size_t i = 0; i < spans.spans.size(); ++i)
        if (spans.nameOf(static_cast<int32_t>(i)) == name) return static_cast<int32_t>(i);
    return -1;
}

const char* const kKernel = "cpp_fused_mul_add_relu_0";

}  // namespace

class TraceViewTest : public QObject {
    Q_OBJECT
private slots:
    void indexNestsSpansByTheirParents() {
        RunStore store;
        store.replace(test::loadFixture("traced_run"));
        auto spans = indexOf(store);
        QCOMPARE(spans->spans.size(), size_t(25));
        QCOMPARE(spans->tracks.size(), size_t(1));
        QCOMPARE(spans->tracks[0].rows.size(), size_t(4));  // annotation > region > call > kernel
        int counts[4] = {};
        for (const auto& s : spans->spans) ++counts[int(s.category)];
        QCOMPARE(counts[int(SpanCategory::CpuOp)], 5);
        QCOMPARE(counts[int(SpanCategory::UserAnnotation)], 10);
        QCOMPARE(counts[int(SpanCategory::Kernel)], 4);
        QCOMPARE(counts[int(SpanCategory::Compile)], 6);
        int32_t kernel = firstSpanNamed(*spans, kKernel);
        QCOMPARE(int(spans->spans[size_t(kernel)].depth), 3);
        QCOMPARE(spans->nameOf(spans->spans[size_t(kernel)].parent), std::string("## Call CompiledFxGraph __compiled_fn_0 ##"));
        const TraceSpan& k = spans->spans[size_t(kernel)];
        QCOMPARE(spans->spanAt(0, 3, (k.begin + k.end) / 2), kernel);
        QCOMPARE(spans->spanAt(0, 3, spans->first - 10), -1);
        auto [first, last] = spans->rowRange(0, 3, spans->first, spans->last + 1);
        QCOMPARE(last - first, size_t(4));  // every kernel call

        // The first call of each kernel of a compile is its warm-up; the later ones are not.
        std::vector<int32_t> calls;
        for (size_t i = 0; i < spans->spans.size(); ++i)
            if (spans->spans[i].category == SpanCategory::Kernel && spans->nameOf(int32_t(i)) == kKernel) calls.push_back(int32_t(i));
        QVERIFY(calls.size() >= 2);
        std::sort(calls.begin(), calls.end(), [&](int32_t a, int32_t b) { return spans->spans[size_t(a)].begin < spans->spans[size_t(b)].begin; });
        QVERIFY(spans->spans[size_t(calls[0])].warmUp);
        for (size_t c = 1; c < calls.size(); ++c) QVERIFY(!spans->spans[size_t(calls[c])].warmUp);
        TraceTreeModel tree(&store);
        tree.setSpans(spans);
        QCOMPARE(tree.indexOfSpan(calls[0]).siblingAtColumn(TraceTreeModel::CategoryColumn).data().toString(), QString("kernel (warm-up: first call)"));
        QCOMPARE(tree.indexOfSpan(calls[1]).siblingAtColumn(TraceTreeModel::CategoryColumn).data().toString(), QString("kernel"));
    }

    void treeShowsThreadsAnnotationsOpsAndKernels() {
        RunStore store;
        store.replace(test::loadFixture("traced_run"));
        TraceTreeModel model(&store);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSpans(indexOf(store));
        QCOMPARE(model.rowCount(), 1);
        QVERIFY(model.index(0, 0).data().toString().startsWith("Thread "));
        QModelIndex thread = model.index(0, 0);
        QCOMPARE(childNames(model, thread), (QStringList{"aten::ones", "## warmup ##", "## steady ##", "aten::sum"}));
        QModelIndex steady = model.index(2, 0, thread);
        QCOMPARE(childNames(model, steady),
                 (QStringList{"Torch-Compiled Region: 0/0", "aten::add", "Torch-Compiled Region: 0/0", "aten::add",
                              "Torch-Compiled Region: 0/0", "aten::add"}));
        QModelIndex region = model.index(0, 0, model.index(1, 0, thread));
        QCOMPARE(childNames(model, region),
                 (QStringList{"capture __compiled_fn_0", "decompose __compiled_fn_0", "lower __compiled_fn_0", "schedule __compiled_fn_0",
                              "codegen __compiled_fn_0", "toolchain __compiled_fn_0", "## Call CompiledFxGraph __compiled_fn_0 ##"}));
        QModelIndex kernel = model.index(0, 0, model.index(6, 0, region));
        QCOMPARE(kernel.data().toString(), QString(kKernel));
        QCOMPARE(kernel.siblingAtColumn(TraceTreeModel::CategoryColumn).data().toString(), QString("kernel (warm-up: first call)"));  // the compiling call runs it first
        QVERIFY(kernel.siblingAtColumn(TraceTreeModel::CompileColumn).data().toString().startsWith("0/0 "));
        QVERIFY(kernel.siblingAtColumn(TraceTreeModel::CompileColumn).data().toString().endsWith(".cpp"));
        QCOMPARE(model.indexOfSpan(kernel.data(TraceTreeModel::SpanRole).toInt()), kernel);
        QModelIndex add = model.index(1, TraceTreeModel::ShapesColumn, steady);
        QCOMPARE(add.data().toString(), QString("[[8],[],[]]"));  // add(Tensor self, Scalar other, *, Scalar alpha)
        bool ok = false;
        QVERIFY(model.index(1, TraceTreeModel::DurationColumn, steady).data().toString().toDouble(&ok) >= 0 && ok);
    }

    void viewIndexesOffTheGuiThreadFedIncrementallyOrAllAtOnce() {
        RunStore store;
        TraceView view(&store);
        for (const auto& e : test::loadFixture("traced_run")) store.append(e);
        QTRY_VERIFY_WITH_TIMEOUT(!view.indexPending() && view.spans() && view.spans()->spans.size() == 25, 10000);
        store.replace(test::loadFixture("traced_run"));
        QTRY_VERIFY_WITH_TIMEOUT(!view.indexPending() && view.spans()->spans.size() == 25, 10000);
        QCOMPARE(view.selectionText(), QString("25 span(s)"));
        store.clear();
        QTRY_VERIFY_WITH_TIMEOUT(!view.indexPending() && view.spans()->spans.empty(), 10000);
    }

    void timelineZoomsPansSelectsAndLinksToTheTree() {
        RunStore store;
        TraceView view(&store);
        view.resize(900, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        store.replace(test::loadFixture("traced_run"));
        QTRY_VERIFY_WITH_TIMEOUT(!view.indexPending() && view.spans() && view.spans()->spans.size() == 25, 10000);
        TimelineView* timeline = view.timeline();
        const TraceSpans& spans = *view.spans();
        timeline->fitAll();
        auto [start, end] = timeline->visibleRange();
        QVERIFY(start <= spans.first && end >= spans.last);

        // The wheel zooms around the cursor: the time under it stays put.
        QPointF at(300, 40);
        int64_t before = start + static_cast<int64_t>((end - start) * 300.0 / timeline->viewport()->width());
        QWheelEvent wheel(at, timeline->viewport()->mapToGlobal(at), {}, QPoint(0, 120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(timeline->viewport(), &wheel);
        auto [zStart, zEnd] = timeline->visibleRange();
        QVERIFY(std::abs(double(zEnd - zStart) * 1.25 - double(end - start)) < double(end - start) * 0.01);
        int64_t after = zStart + static_cast<int64_t>((zEnd - zStart) * 300.0 / timeline->viewport()->width());
        QVERIFY(std::abs(double(after - before)) <= double(zEnd - zStart) / timeline->viewport()->width() * 2);

        // Dragging pans: 100 pixels left shows later times.
        QTest::mousePress(timeline->viewport(), Qt::LeftButton, {}, QPoint(400, 100));
        QTest::mouseMove(timeline->viewport(), QPoint(350, 100));
        QTest::mouseMove(timeline->viewport(), QPoint(300, 100));
        QTest::mouseRelease(timeline->viewport(), Qt::LeftButton, {}, QPoint(300, 100));
        auto [pStart, pEnd] = timeline->visibleRange();
        QVERIFY(pStart > zStart && pEnd - pStart == zEnd - zStart);
        QCOMPARE(timeline->selectedSpan(), -1);  // a drag selects nothing

        // Selecting a kernel brings it into view, at least a few pixels wide, and the tree follows.
        int32_t kernel = firstSpanNamed(spans, kKernel);
        view.selectSpan(kernel);
        QPoint centre = timeline->centreOf(kernel);
        QVERIFY(timeline->viewport()->rect().contains(centre));
        QCOMPARE(timeline->spanAt(centre), kernel);
        QCOMPARE(view.tree()->currentIndex().data().toString(), QString(kKernel));
        QVERIFY(view.selectionText().startsWith(QString(kKernel) + " (kernel): "));
        QVERIFY(view.selectionText().endsWith(", compile 0/0"));

        // Clicking a span in the timeline selects it in the tree and names its kernel.
        timeline->fitAll();
        QSignalSpy kernels(&view, &TraceView::kernelSelected);
        int32_t steady = firstSpanNamed(spans, "## steady ##");
        QTest::mouseClick(timeline->viewport(), Qt::LeftButton, {}, timeline->centreOf(steady));
        QCOMPARE(timeline->selectedSpan(), steady);
        QCOMPARE(view.tree()->currentIndex().data().toString(), QString("## steady ##"));
        QCOMPARE(kernels.count(), 0);
        view.selectSpan(kernel);
        QTest::mouseClick(timeline->viewport(), Qt::LeftButton, {}, timeline->centreOf(kernel));
        QCOMPARE(kernels.count(), 1);
        QCOMPARE(kernels.last(), (QVariantList{"0/0", kKernel, QString()}));  // a fixture recorded before spans named their buffers
    }

    // Filled while its dock was hidden at another width, the timeline fits the width it is shown
    // at (it stayed a third full until double-clicked); once the user zooms, a resize keeps it.
    void aResizeFitsAgainUntilTheUserZooms() {
        RunStore store;
        TraceView view(&store);
        view.resize(300, 400);
        store.replace(test::loadFixture("traced_run"));
        QTRY_VERIFY_WITH_TIMEOUT(!view.indexPending() && view.spans() && view.spans()->spans.size() == 25, 10000);
        TimelineView* timeline = view.timeline();
        const TraceSpans& spans = *view.spans();
        view.resize(1200, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto [start, end] = timeline->visibleRange();
        QVERIFY(start <= spans.first && end >= spans.last);
        QVERIFY2(double(end - start) < double(spans.last - spans.first) * 1.05, "the whole width is used");

        QWheelEvent wheel(QPointF(100, 40), timeline->viewport()->mapToGlobal(QPointF(100, 40)), {}, QPoint(0, 120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(timeline->viewport(), &wheel);
        auto zoomed = timeline->visibleRange();
        view.resize(1000, 400);
        QTRY_COMPARE(timeline->viewport()->width() < 1000, true);
        QCOMPARE(timeline->visibleRange().first, zoomed.first);
    }

    void aMillionSubPixelSpansPaintAsPixelColumns() {
        std::vector<TraceSpanRecord> records(1'000'000);
        for (int i = 0; i < 1'000'000; ++i) {
            records[size_t(i)].rfId = i + 1;
            records[size_t(i)].tid = 7;
            records[size_t(i)].begin = int64_t(i) * 10;
            records[size_t(i)].end = int64_t(i) * 10 + 5;
        }
        auto spans = std::make_shared<TraceSpans>(indexTraceSpans(records, {"aten::add"}));
        TimelineView timeline;
        timeline.resize(1000, 200);
        timeline.setSpans(spans);
        timeline.fitAll();
        QImage image(timeline.viewport()->size(), QImage::Format_RGB32);
        QPainter painter(&image);
        timeline.paintTimeline(painter, image.size());
        painter.end();
        // Every pixel column across the spans' time has a mark in the span row (y 20..38).
        auto [start, end] = timeline.visibleRange();
        int firstX = static_cast<int>((0 - start) * double(image.width()) / double(end - start)) + 1;
        int lastX = static_cast<int>((10'000'000 - start) * double(image.width()) / double(end - start)) - 1;
        QColor background = image.pixelColor(image.width() - 1, 190);
        int marked = 0;
        for (int x = firstX; x <= lastX; ++x) marked += image.pixelColor(x, 29) != background;
        QCOMPARE(marked, lastX - firstX + 1);
    }
};

QTEST_MAIN(TraceViewTest)
#include "trace_view_test.moc"
