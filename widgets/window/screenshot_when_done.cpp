#include "window/screenshot_when_done.h"

#include <cstdio>
#include <memory>

#include <QTimer>

#include "window/main_window.h"

namespace fusescope::gui {

void screenshotWhenDone(MainWindow& window, const QString& path, bool running, std::function<void(int)> done) {
    // Grab once the views have painted and the graph layouts (worker threads) are drawn.
    auto grabbed = std::make_shared<bool>(false);
    auto grab = [&window, path, done, grabbed](int status) {
        if (*grabbed) return;
        *grabbed = true;
        QTimer::singleShot(1000, &window, [&window, path, done, status] {
            bool saved = window.grab().save(path);
            if (!saved) std::fprintf(stderr, "fusescope: cannot write %s\n", qPrintable(path));
            done(saved ? status : 1);
        });
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
