// fusescope: the workbench GUI. `fusescope [FILE]` opens a script or a .fscope bundle.
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QTimer>

#include "window/main_window.h"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName("Fusescope");
    QApplication::setApplicationName("Fusescope");
    QApplication::setApplicationVersion("0.1.0");

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("main", "Debugging workbench for a tensor-graph compiler"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("file", QApplication::translate("main", "A script (.py) or trace bundle (.fscope) to open"));
    QCommandLineOption run("run", QApplication::translate("main", "Run the opened script at once"));
    QCommandLineOption screenshot("screenshot", QApplication::translate("main", "When the run ends, save the window as PNG to <file> and quit"),
                                  "file");
    parser.addOptions({run, screenshot});
    parser.process(app);

    // The engine child is the fusescope-cli built next to this binary.
    QString cli = QDir(QApplication::applicationDirPath()).filePath("fusescope-cli");
    fusescope::gui::MainWindow window(cli);
    window.resize(1400, 900);
    window.show();
    if (!parser.positionalArguments().isEmpty() && !window.openFile(parser.positionalArguments().first())) return 1;
    if (parser.isSet(screenshot)) {
        // Grab after the run's answer (or at once for a bundle), once the views have painted.
        QString path = parser.value(screenshot);
        auto grab = [&window, path] {
            QTimer::singleShot(500, &window, [&window, path] {
                window.grab().save(path);
                QApplication::quit();
            });
        };
        QObject::connect(&window.engine(), &fusescope::gui::EngineClient::answered, &window, grab);
        QObject::connect(&window.engine(), &fusescope::gui::EngineClient::failed, &window, grab);
        if (!parser.isSet(run)) grab();
    }
    if (parser.isSet(run)) window.runScript();
    return app.exec();
}
