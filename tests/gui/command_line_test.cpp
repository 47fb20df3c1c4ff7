// The workbench's command line: --help and --version answer without a display (where a
// window system is needed the GUI would abort before printing anything).
#include <QProcess>
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
};

QTEST_GUILESS_MAIN(CommandLineTest)
#include "command_line_test.moc"
