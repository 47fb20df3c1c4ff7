// fusescope: the workbench GUI. `fusescope [FILE]` opens a script or a .fscope bundle.
#include <cstdio>
#include <memory>
#include <string_view>

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QSettings>
#include <QTranslator>

#include "window/main_window.h"
#include "window/screenshot_when_done.h"

namespace {

// The UI language: --lang CODE (or --lang=CODE), else the setting ui/language, else the
// system locale. Read before the parser so --help is translated too.
QString uiLanguage(const QStringList& args) {
    for (int i = 0; i < args.size(); ++i) {
        if (args[i].startsWith("--lang=")) return args[i].mid(7);
        if (args[i] == "--lang" && i + 1 < args.size()) return args[i + 1];
    }
    QString saved = QSettings().value("ui/language").toString();
    return saved.isEmpty() ? QLocale::system().name() : saved;
}

// Whether the command line asks for the usage or the version, which need no display: the
// parser answers them from a QCoreApplication, where a QApplication would abort for want of
// a window system.
bool asksForUsage(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        std::string_view a = argv[i];
        if (a == "-h" || a == "-?" || a == "--help" || a == "--help-all" || a == "-v" || a == "--version") return true;
    }
    return false;
}

}  // namespace

int main(int argc, char** argv) {
    std::unique_ptr<QCoreApplication> application = asksForUsage(argc, argv)
                                                        ? std::make_unique<QCoreApplication>(argc, argv)
                                                        : std::make_unique<QApplication>(argc, argv);
    QCoreApplication& app = *application;
    QApplication::setOrganizationName("Fusescope");
    QApplication::setApplicationName("Fusescope");
    QApplication::setApplicationVersion("0.1.0");

    // English is the source language: its file holds only the plural forms ("1 op", "3 ops"),
    // the one used when no other language's is.
    QTranslator translator;
    if (translator.load("fusescope_" + uiLanguage(QApplication::arguments()), ":/i18n") || translator.load("fusescope_en", ":/i18n"))
        app.installTranslator(&translator);

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("main", "Debugging workbench for a tensor-graph compiler"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("file", QApplication::translate("main", "A script (.py) or trace bundle (.fscope) to open"));
    QCommandLineOption run("run", QApplication::translate("main", "Run the opened script at once"));
    QCommandLineOption screenshot("screenshot", QApplication::translate("main", "When the run ends, save the window as PNG to <file> and quit"),
                                  "file");
    QCommandLineOption lang("lang", QApplication::translate("main", "User-interface language, e.g. zh_CN or en (default: the system's)"),
                            "code");
    QCommandLineOption backend("backend", QApplication::translate("main", "Compile with this backend (inductor, eager) instead of what the script says"),
                               "name");
    QCommandLineOption view("view", QApplication::translate("main", "Bring a view to the front when the run ends: overview, fusion, code, guards, compare, torch-compare, trace, minify, ranks, or a training graph's forward or backward"),
                            "view");
    QCommandLineOption gpuCodegenOnly("gpu-codegen-only", QApplication::translate("main", "Run cuda tensors on the CPU and generate their CUDA kernels (the Device picker's cuda (GPU code only))"));
    QCommandLineOption torchPython("torch-python", QApplication::translate("main", "The Python with torch that Run Under PyTorch Too uses (default: Edit > Preferences, else python3 on PATH)"),
                                   "path");
    QCommandLineOption underTorch("under-torch", QApplication::translate("main", "Run the script under real PyTorch too, and pair its compiles with ours (Ours vs PyTorch)"));
    QCommandLineOption engine("engine", QApplication::translate("main", "Run the engine at ssh://user@host[:port]/path/to/fusescope-cli for this session (docs/remote.md)"),
                              "address");
    QCommandLineOption beside("beside", QApplication::translate("main", "Open a TORCH_TRACE folder or log as PyTorch's side of the Ours vs PyTorch view"), "path");
    parser.addOptions({run, screenshot, lang, backend, view, gpuCodegenOnly, torchPython, underTorch, beside, engine});
    parser.process(app);

    // The engine child is the fusescope-cli built next to this binary.
    QString cli = QDir(QApplication::applicationDirPath()).filePath("fusescope-cli");
    fusescope::gui::MainWindow window(cli);
    window.setNonInteractive(parser.isSet(screenshot));  // no one answers a dialog there
    if (parser.isSet(engine)) {
        window.setNonInteractive(true);  // a bad address is said on stderr, and the exit status is 2
        if (!window.connectEngine(parser.value(engine), fusescope::gui::MainWindow::EngineChoice::ThisSession)) return 2;
        window.setNonInteractive(parser.isSet(screenshot));
    }
    window.show();
    if (!parser.positionalArguments().isEmpty() && !window.openFile(parser.positionalArguments().first())) return 1;
    if (parser.isSet(backend) && !window.setBackend(parser.value(backend))) {
        std::fprintf(stderr, "fusescope: unknown backend '%s'; the Backend picker lists the available ones\n",
                     qPrintable(parser.value(backend)));
        return 2;
    }
    window.setGpuCodegenOnly(parser.isSet(gpuCodegenOnly));
    if (parser.isSet(torchPython)) window.setTorchPython(parser.value(torchPython));
    // --beside names PyTorch's side: a run does not replace it with one of its own.
    if (parser.isSet(underTorch) || parser.isSet(beside)) window.setRunUnderTorch(parser.isSet(underTorch) && !parser.isSet(beside));
    if (parser.isSet(beside)) window.openTorchTraceBeside(parser.value(beside));
    QString viewName = parser.value(view);
    const QStringList views = {"overview",      "fusion", "code",  "guards",  "graph-breaks", "compare",
                               "torch-compare", "trace",  "minify", "ranks", "forward", "backward"};
    if (!viewName.isEmpty() && !views.contains(viewName)) {
        std::fprintf(stderr, "fusescope: unknown view '%s'; available: %s\n", qPrintable(viewName), qPrintable(views.join(", ")));
        return 2;
    }
    auto showView = [&window, viewName] {
        if (!viewName.isEmpty()) window.showView(viewName);
    };
    QObject::connect(&window.engine(), &fusescope::gui::EngineClient::answered, &window, showView);
    if (!parser.isSet(run) && !viewName.isEmpty()) window.showViewOnceOpened(viewName);
    if (parser.isSet(screenshot))
        fusescope::gui::screenshotWhenDone(window, parser.value(screenshot), parser.isSet(run),
                                           [](int status) { QApplication::exit(status); });
    if (parser.isSet(run)) window.runScript();
    return app.exec();
}
