// The workbench on a model-sized run: a compiled function of about 5,000 ops (residual
// blocks: row mean, matrix product, tanh, add), run from the window until every pane is
// filled: both IR dumps, the C++, the fusion stepper's steps, the captured graph and the
// graph after fusion laid out. The baseline, in the same run, is `fusescope-cli run` of
// the same script (the engine's share). Both start from an empty kernel cache.
// Target (issue 20): every pane filled in under 5 s.
// Usage: bench_gui_large_run [runs] [ops]

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>

#include "views/code_view.h"
#include "views/fusion_stepper.h"
#include "views/graph_view.h"
#include "window/main_window.h"

using fusescope::gui::EngineClient;
using fusescope::gui::MainWindow;

namespace {

QByteArray script(int ops) {
    return QStringLiteral("import torch\n\n"
                          "x = torch.linspace(-1.0, 1.0, 1024).reshape(16, 64)\n"
                          "w = torch.linspace(-0.1, 0.1, 4096).reshape(64, 64)\n\n"
                          "@torch.compile\n"
                          "def blocks(x, w):\n"
                          "    for i in range(%1):\n"
                          "        x = x + torch.tanh(torch.mm(x - x.mean(1, keepdim=True), w) * 0.05)\n"
                          "    return x\n\n"
                          "print(blocks(x, w).sum())\n")
        .arg(ops / 6)
        .toUtf8();
}

// Seconds `fusescope-cli run path` takes with the kernel cache in `cacheDir`.
double cliSeconds(const QString& cli, const QString& path, const QString& cacheDir) {
    std::fflush(stdout);  // or the child's freopen writes what is buffered a second time
    QElapsedTimer wall;
    wall.start();
    pid_t pid = fork();
    if (pid == 0) {
        setenv("FUSESCOPE_CACHE_DIR", qPrintable(cacheDir), 1);
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) _exit(126);
        execl(qPrintable(cli), qPrintable(cli), "run", qPrintable(path), static_cast<char*>(nullptr));
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? wall.elapsed() / 1e3 : -1;
}

bool everyPaneFilled(MainWindow& window) {
    return !window.preFusionView()->text().isEmpty() && !window.postFusionView()->text().isEmpty() &&
           window.cppView()->text().contains("fs_steps") && window.fusionStepper()->stepCount() > 0 &&
           !window.graphView()->layoutPending() && window.graphView()->nodeCount() > 0 &&
           !window.afterFusionView()->layoutPending() && window.afterFusionView()->nodeCount() > 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QTemporaryDir dir;
    qputenv("FUSESCOPE_CACHE_DIR", qPrintable(dir.filePath("cache")));  // the GUI's engine inherits it
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);  // no settings or autosave of the user's touched
    int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
    int ops = argc > 2 ? std::max(6, std::atoi(argv[2])) : 5000;
    QString cli = QDir(QApplication::applicationDirPath()).filePath("fusescope-cli");
    QString path = dir.filePath("blocks.py");
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(script(ops)) < 0) return 1;
    file.close();

    MainWindow window(cli);
    window.resize(1400, 900);
    window.show();
    if (!window.openFile(path)) return 1;
    std::printf("run   ops  cli s  workbench s  (answer s)  ratio\n");
    for (int r = 0; r < runs; ++r) {
        QDir(dir.filePath("cache")).removeRecursively();
        double baseline = cliSeconds(cli, path, dir.filePath("cli-cache-" + QString::number(r)));
        QSignalSpy answered(&window.engine(), &EngineClient::answered);
        QSignalSpy failed(&window.engine(), &EngineClient::failed);
        QElapsedTimer wall;
        wall.start();
        window.runScript();
        double answer = 0;
        while (!everyPaneFilled(window) || answered.isEmpty()) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
            if (!answered.isEmpty() && answer == 0) answer = wall.elapsed() / 1e3;
            if (!failed.isEmpty()) {
                std::fprintf(stderr, "the run failed: %s\n", qPrintable(failed.first().at(2).toString()));
                return 1;
            }
            if (wall.elapsed() > 120000) {
                std::fprintf(stderr, "panes still empty after 120 s\n");
                return 1;
            }
        }
        double seconds = wall.elapsed() / 1e3;
        std::printf("%3d  %4d  %5.2f  %11.2f  %10.2f  %5.2f\n", r + 1, ops, baseline, seconds, answer, seconds / baseline);
        std::fflush(stdout);
    }
    return 0;
}
