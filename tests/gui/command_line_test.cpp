// The workbench's command line: --help and --version answer without a display (where a
// window system is needed the GUI would abort before printing anything).
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

class CommandLineTest : public QObject {
    Q_OBJECT
private slots:
    void helpAndVersionNeedNoDisplay() {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove("DISPLAY");
        env.remove("WAYLAND_DISPLAY");
        env.remove("QT_QPA_PLATFORM");
        for (const char* flag : {"--help", "--version"}) {
            QProcess gui;
            gui.setProcessEnvironment(env);
            gui.start(FUSESCOPE_GUI, {flag});
            QVERIFY2(gui.waitForFinished(30000), flag);
            QCOMPARE(gui.exitStatus(), QProcess::NormalExit);
            QCOMPARE(gui.exitCode(), 0);
            QString out = QString::fromUtf8(gui.readAllStandardOutput());
            QVERIFY2(out.contains(QString(flag) == "--help" ? "Usage:" : "Fusescope 0.1.0"), qPrintable(out));
        }
    }

    // --screenshot waits for no one: a file it cannot open is said on stderr and ends the
    // run with status 1, where a message box would wait for ever.
    void aScreenshotRunThatMeetsAnErrorSaysItAndExits() {
        QTemporaryDir dir;
        const QString bundle = dir.filePath("broken.fscope"), png = dir.filePath("shot.png");
        QFile file(bundle);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not a zip at all\n");
        file.close();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("QT_QPA_PLATFORM", "offscreen");
        QProcess gui;
        gui.setProcessEnvironment(env);
        gui.start(FUSESCOPE_GUI, {bundle, "--screenshot", png});
        QVERIFY2(gui.waitForFinished(30000), "the screenshot run is still waiting");
        QCOMPARE(gui.exitCode(), 1);
        const QString err = QString::fromUtf8(gui.readAllStandardError());
        QVERIFY2(err.contains("fusescope: Open Bundle: " + bundle + " is not a usable bundle:"), qPrintable(err));
    }
};

QTEST_GUILESS_MAIN(CommandLineTest)
#include "command_line_test.moc"
