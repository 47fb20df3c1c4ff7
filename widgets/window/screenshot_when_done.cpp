#include "window/screenshot_when_done.h"

#include <cstdio>
#include <memory>

#include <QTimer>

#include "window/main_window.h"

namespace fusescope::gui {

namespace {

// Polls until every view is ready (graph layouts and the trace index run on worker threads),
// then grabs. A view that never settles (a stuck layout) still gets its picture after a while.
void grabWhenReady(MainWindow& window, const QString& path, std::function<void(int)> done, int status) {
    constexpr int kPollMs = 50, kGiveUpMs = 120000;
    auto waited = std::make_shared<int>(0);
    auto* poll = new QTimer(&window);
    QObject::connect(poll, &QTimer::timeout, &window, [&window, path, done, status, waited, poll] {
        *waited += kPollMs;
        bool ready = window.viewsReady();
        if (!ready && *waited < kGiveUpMs) return;
        if (!ready) std::fprintf(stderr, "fusescope: views still busy after %d s; taking the screenshot anyway\n", kGiveUpMs / 1000);
        poll->deleteLater();
        bool saved = window.grab().save(path);  // grab() paints every widget afresh
        if (!saved) std::fprintf(stderr, "fusescope: cannot write %s\n", qPrintable(path));
        done(saved ? status : 1);
    });
    poll->start(kPollMs);
}

}  // namespace

void screenshotWhenDone(MainWindow& window, const QString& path, bool running, std::function<void(int)> done) {
    auto grabbed = std::make_shared<bool>(false);
    auto grab = [&window, path, done, grabbed](int status) {
        if (*grabbed) return;
        *grabbed = true;
        grabWhenReady(window, path, done, status);
    };
    auto ended = [&window, grab] {
        // --view minify: the minifier runs after the run; --under-torch: PyTorch's run may end later
        if (!window.engine().activeRun() && !window.torchSide().isBusy()) grab(0);
    };
    QObject::connect(&window.engine(), &EngineClient::answered, &window, ended);
    QObject::connect(&window.engine(), &EngineClient::failed, &window, ended);
    QObject::connect(&window.torchSide(), &TorchSide::loaded, &window, ended);
    QObject::connect(&window.torchSide(), &TorchSide::failed, &window, ended);
    QObject::connect(&window.engine(), &EngineClient::engineDied, &window, [grab](const QString& description) {
        std::fprintf(stderr, "fusescope: %s\n", qPrintable(description));
        grab(1);
    });
    if (!running) grab(0);
}

}  // namespace fusescope::gui
