// Opening a trace bundle of 1,000,000 spans in the workbench, and repainting its timeline.
// The bundle is synthesised with the engine's own trace-record JSON: 1,000 profiler steps
// (record_function annotations), each with 111 compiled calls (region > graph call >
// kernel) and 666 eager ops with tensor arguments, 1,000 spans a step. Measured: how long
// the GUI thread is busy opening it (read, validate, parse, every model rebuilt), how long
// until the trace index is ready (built on a worker), and the timeline repainted into a
// 1600x900 image fully zoomed out, at 1% of the run and at 0.001%, median of N. Baseline,
// measured in the same run: inflating the bundle's entries (libzip), which any open pays.
// Targets (issue 5): open < 3 s, repaint < 16 ms. Usage: bench_trace_timeline [repaints]

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QWheelEvent>
#include <cmath>

#include "bundle/bundle_format.h"
#include "bundle/bundle_reader.h"
#include "bundle/bundle_writer.h"
#include "observe/event.h"
#include "profile/trace_record.h"
#include "timeline/timeline_view.h"
#include "timeline/trace_view.h"
#include "window/main_window.h"

using namespace fusescope;
using namespace fusescope::gui;

namespace {

constexpr int kSteps = 1000;

TraceRecord record(int64_t rfId, int64_t parent, TraceCategory category, const char* name, int64_t begin, int64_t end) {
    TraceRecord r;
    r.rfId = rfId;
    r.parentId = parent;
    r.category = category;
    r.name = name;
    r.beginNs = begin;
    r.endNs = end;
    r.tid = 1;
    return r;
}

std::string syntheticEvents() {
    std::string out;
    int64_t rf = 1, t = 1'000'000;
    auto emit = [&](TraceRecord r) {
        nlohmann::json j = traceRecordToJson(r);
        j["type"] = "trace_event";
        out += j.dump();
        out += '\n';
    };
    for (int step = 0; step < kSteps; ++step) {
        TraceRecord annotation;
        annotation.rfId = rf++;
        annotation.category = TraceCategory::UserAnnotation;
        annotation.name = "ProfilerStep#" + std::to_string(step);
        annotation.beginNs = t;
        annotation.tid = 1;
        int64_t stepRf = annotation.rfId;
        // 111 compiled calls (3 spans each) and 666 eager ops: 999 spans + the annotation.
        for (int i = 0; i < 111; ++i) {
            TraceRecord region = record(rf++, stepRf, TraceCategory::UserAnnotation, "Torch-Compiled Region: 0/0", t + 10, t + 400);
            TraceRecord call = record(rf++, region.rfId, TraceCategory::UserAnnotation, "## Call CompiledFxGraph __compiled_fn_0 ##",
                                      t + 20, t + 390);
            TraceRecord kernel = record(rf++, call.rfId, TraceCategory::Kernel, "cpp_fused_add_mul_relu_0", t + 30, t + 380);
            kernel.kernelBackend = "cpp";
            kernel.kernelFile = "/cache/0123456789abcdef.cpp";
            kernel.compileId = region.compileId = call.compileId = "0/0";
            for (const auto* r : {&kernel, &call, &region}) emit(*r);  // children end first, as recorded
            t += 420;
            for (int op = 0; op < 6; ++op) {
                TraceRecord add = record(rf++, stepRf, TraceCategory::CpuOp, "aten::add", t, t + 150);
                add.opSchema = "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor";
                for (int a = 0; a < 2; ++a) {
                    add.inputs.values.push_back({a + 1, a + 1, 0, 4096, 4, "cpu"});
                    add.inputs.shapes.push_back({64, 64});
                    add.inputs.types.push_back("Tensor(float)");
                    add.inputs.strides.push_back({64, 1});
                }
                emit(add);
                t += 170;
            }
        }
        annotation.endNs = t + 5;
        emit(annotation);
        t += 50;
    }
    return out;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

double paintMs(const TimelineView& timeline, QImage& image) {
    QElapsedTimer clock;
    clock.start();
    QPainter painter(&image);
    timeline.paintTimeline(painter, image.size());
    painter.end();
    return clock.nsecsElapsed() / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    int repaints = argc > 1 ? std::max(1, std::atoi(argv[1])) : 20;

    QString path = QDir::temp().filePath("bench_trace_timeline.fscope");
    {
        std::map<std::string, std::string> entries;
        BundleManifest manifest = makeManifest("steps.py", "cpu", {{"trace", true}});
        entries[kManifestEntry] = manifest.toJson().dump(2) + "\n";
        entries[std::string(kScriptFolder) + "steps.py"] = "# synthetic\n";
        entries[kEventsEntry] = syntheticEvents();
        const std::string& events = entries[kEventsEntry];
        std::printf("bundle: %ld spans, events.jsonl %.0f MB\n", static_cast<long>(std::count(events.begin(), events.end(), '\n')),
                    events.size() / 1e6);
        writeBundle(path.toStdString(), std::move(entries));
    }

    QElapsedTimer inflate;
    inflate.start();
    readBundle(path.toStdString(), {}, BundleEvents::Unparsed);
    double inflateSeconds = inflate.nsecsElapsed() / 1e9;

    MainWindow window(QDir(QApplication::applicationDirPath()).filePath("fusescope-cli"));
    window.resize(1600, 900);
    window.show();
    QSignalSpy ready(window.traceView(), &TraceView::indexReady);
    QElapsedTimer clock;
    clock.start();
    if (!window.openFile(path)) return 1;
    double guiThread = clock.nsecsElapsed() / 1e9;
    while (!(ready.count() > 0 && !window.traceView()->indexPending())) QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    double indexed = clock.nsecsElapsed() / 1e9;
    std::printf("baseline: inflating the bundle %.2f s\n", inflateSeconds);
    std::printf("open: GUI thread busy %.2f s (%.2fx the baseline), trace index ready after %.2f s (%.2fx; target 3 s: %.2fx)\n",
                guiThread, guiThread / inflateSeconds, indexed, indexed / inflateSeconds, indexed / 3);
    QFile::remove(path);

    const TraceSpans& spans = *window.traceView()->spans();
    TimelineView timeline;
    timeline.resize(1600, 900);
    timeline.setSpans(window.traceView()->spans() ? std::shared_ptr<const TraceSpans>(window.traceView()->spans(), [](const TraceSpans*) {})
                                                  : nullptr);
    QImage image(timeline.viewport()->size(), QImage::Format_ARGB32_Premultiplied);
    std::printf("%-22s %10s %10s\n", "repaint (1600x900)", "median ms", "vs 16 ms");
    int64_t total = spans.last - spans.first;
    struct Zoom {
        const char* name;
        double fraction;
    };
    for (Zoom zoom : {Zoom{"whole run", 1.0}, Zoom{"1% of the run", 0.01}, Zoom{"0.001% of the run", 0.00001}}) {
        timeline.fitAll();
        int32_t middle = static_cast<int32_t>(spans.spans.size() / 2);
        if (zoom.fraction < 1) {
            // Zoom on a span in the middle, then out to the fraction wanted.
            timeline.selectSpan(middle);
            auto [a, b] = timeline.visibleRange();
            double factor = double(b - a) / (total * zoom.fraction);
            QWheelEvent wheel(QPointF(800, 100), QPointF(800, 100), {}, QPoint(0, static_cast<int>(120 * std::log(factor) / std::log(1.25))),
                              Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
            QCoreApplication::sendEvent(timeline.viewport(), &wheel);
        }
        std::vector<double> ms;
        for (int r = 0; r < repaints; ++r) ms.push_back(paintMs(timeline, image));
        auto [a, b] = timeline.visibleRange();
        std::printf("%-22s %10.2f %9.2fx   (%.3g ms of trace shown)\n", zoom.name, median(ms), median(ms) / 16, (b - a) / 1e6);
    }
    return 0;
}
