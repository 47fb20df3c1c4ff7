// The engine child as the GUI drives it: a real `fusescope-cli serve`, a run that streams
// the seed-000 compile, a child killed mid-run (everything received is kept, the death is
// reported with what was running), a restart that works, and a burst of output handled in
// slices so the GUI thread keeps running in between.
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QTimer>

#include "engine/engine_client.h"
#include "gui_test_support.h"

using namespace fusescope::gui;

namespace {

QString readSource(const std::string& relative) {
    QFile f(QString::fromStdString(test::sourcePath(relative)));
    f.open(QIODevice::ReadOnly);
    return QString::fromUtf8(f.readAll());
}

std::vector<std::string> typesOf(const std::vector<nlohmann::json>& events) {
    std::vector<std::string> types;
    for (const auto& e : events) types.push_back(e.value("type", ""));
    return types;
}

bool contains(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

QString textOf(const nlohmann::json& event) { return QString::fromStdString(event.value("text", "")); }

RunRequest request(const QString& script, const QString& fileName, const QString& backend = {}) {
    RunRequest r;
    r.script = script;
    r.fileName = fileName;
    r.backend = backend;
    return r;
}

}  // namespace

class EngineClientTest : public QObject {
    Q_OBJECT
private slots:
    void runStreamsTheSeed000CompileThenAnswers() {
        EngineClient client(QString::fromStdString(test::cliPath()));
        std::vector<nlohmann::json> events;
        connect(&client, &EngineClient::eventReceived, [&](int, const nlohmann::json& e) { events.push_back(e); });
        QSignalSpy answered(&client, &EngineClient::answered);
        int id = client.run(request(readSource("tests/golden/inductor/seed000_fn.py"), "seed000_fn.py", "inductor"));
        QVERIFY(answered.wait(60000));
        QCOMPARE(answered.at(0).at(0).toInt(), id);
        QCOMPARE(client.activeRun(), 0);
        auto types = typesOf(events);
        for (const char* t : {"compile_started", "graph_captured", "ir_pre_fusion", "fusion_decision", "ir_post_fusion", "kernel_source",
                              "trace_event"})
            QVERIFY2(contains(types, t), t);
        bool fusedNode = false;
        for (const auto& e : events)
            if (e["type"] == "ir_post_fusion") fusedNode = e["text"].get<std::string>().find("buf0_buf1") != std::string::npos;
        QVERIFY(fusedNode);
    }

    void aKilledEngineIsReportedKeepsItsEventsAndRestarts() {
        EngineClient client(QString::fromStdString(test::cliPath()));
        std::vector<nlohmann::json> events;
        connect(&client, &EngineClient::eventReceived, [&](int, const nlohmann::json& e) { events.push_back(e); });
        QSignalSpy died(&client, &EngineClient::engineDied);
        client.run(request("print('started')\nx = 0\nwhile True:\n    x = x + 1\n", "spin.py"));
        // Wait until the run has visibly started, then kill the child as a crash would.
        QTRY_VERIFY_WITH_TIMEOUT(contains(typesOf(events), "script_output"), 30000);
        client.kill();
        QVERIFY(died.wait(10000));
        QCOMPARE(died.at(0).at(1).toString(), QString("running spin.py"));
        QVERIFY(died.at(0).at(0).toString().contains("crashed"));
        QCOMPARE(died.at(0).at(0).toString(), QString("the engine crashed: killed by signal 9 (SIGKILL: Killed)"));
        QVERIFY(!client.isRunning());
        QCOMPARE(textOf(events.front()), QString("started\n"));

        QSignalSpy answered(&client, &EngineClient::answered);
        client.restart();
        QVERIFY(client.isRunning());
        client.run(request("print(6 * 7)\n", "again.py"));
        QVERIFY(answered.wait(30000));
        QCOMPARE(textOf(events.back()), QString("42\n"));
        QCOMPARE(died.count(), 1);  // the restart itself is not a death
    }

    // Where the engine runs (docs/remote.md): a path here, or an ssh:// address whose command
    // line runs it there, each word quoted for the remote shell.
    void anEngineAddressIsAPathOrAnSshUrl() {
        QString error;
        auto local = EngineAddress::parse("/opt/fusescope/bin/fusescope-cli", &error);
        QVERIFY(local && !local->isRemote());
        QCOMPARE(local->arguments({"--memory-limit", "100"}), (QStringList{"serve", "--memory-limit", "100"}));
        qputenv("FUSESCOPE_SSH_COMMAND", "ssh -F /home/me/work config");
        auto unset = qScopeGuard([] { qunsetenv("FUSESCOPE_SSH_COMMAND"); });
        auto remote = EngineAddress::parse("ssh://ana@gpu-box:2222/home/ana/fuse scope/bin/fusescope-cli", &error);
        QVERIFY2(remote, qPrintable(error));
        QCOMPARE(remote->shown(), QString("ana@gpu-box:2222"));
        QCOMPARE(remote->program(), QString("ssh"));
        QCOMPARE(remote->arguments({}), (QStringList{"-F", "/home/me/work", "config", "-T", "-e", "none", "-o", "BatchMode=yes", "-o",
                                                     "ServerAliveInterval=5", "-o", "ServerAliveCountMax=3", "-p", "2222", "ana@gpu-box", "--",
                                                     "'/home/ana/fuse scope/bin/fusescope-cli'", "serve"}));
        auto plain = EngineAddress::parse("ssh://gpu-box/opt/fusescope-cli", &error);
        QVERIFY(plain);
        QCOMPARE(plain->shown(), QString("gpu-box"));
        for (const char* bad : {"ssh://gpu-box", "ssh://gpu-box/", "ssh://ana:secret@gpu-box/opt/fusescope-cli", "ssh:///opt/fusescope-cli",
                                "ssh://gpu-box/opt/fusescope-cli?x=1"}) {
            QVERIFY2(!EngineAddress::parse(bad, &error), bad);
            QVERIFY2(error.contains("is not an engine address: ssh://user@host[:port]/path/to/fusescope-cli"), qPrintable(error));
        }
        QVERIFY(!EngineAddress::parse("http://gpu-box/opt/fusescope-cli", &error));
        QCOMPARE(error, QString("'http://gpu-box/opt/fusescope-cli' is neither a path nor an ssh:// address (ssh://user@host[:port]/path/to/fusescope-cli)"));
    }

    // An engine that speaks another protocol is not sent work: its death names both versions.
    // Another Fusescope speaking the same protocol is a notice.
    void anEngineOfAnotherProtocolIsRefusedAndAnotherVersionNoticed() {
        QTemporaryDir dir;
        auto fakeEngine = [&](const QByteArray& answer) {
            QFile f(dir.filePath("fake-cli"));
            f.open(QIODevice::WriteOnly);
            f.write("#!/bin/sh\nread request\necho '" + answer + "'\nsleep 30\n");
            f.close();
            f.setPermissions(f.permissions() | QFileDevice::ExeOwner);
            return f.fileName();
        };
        EngineClient other(fakeEngine(R"({"id":"version","result":{"protocol":2,"fusescope":"9.0.0"}})"));
        QSignalSpy died(&other, &EngineClient::engineDied);
        other.restart();
        QVERIFY(died.wait(10000));
        QCOMPARE(died.at(0).at(0).toString(), QString("the engine at %1 speaks protocol 2, this workbench 1: install this Fusescope (0.1.0) there")
                                                  .arg(dir.filePath("fake-cli")));
        QVERIFY(!other.isRunning());

        EngineClient newer(fakeEngine(R"({"id":"version","result":{"protocol":1,"fusescope":"0.2.0"}})"));
        QSignalSpy notice(&newer, &EngineClient::notice);
        newer.restart();
        QVERIFY(notice.wait(10000));
        QCOMPARE(notice.at(0).at(0).toString(), QString("The engine at %1 is Fusescope 0.2.0, this workbench 0.1.0: what it reports may differ from this build's")
                                                    .arg(dir.filePath("fake-cli")));
        QVERIFY(newer.isRunning());
        newer.kill();
    }

    void aScriptErrorIsAFailureAnswer() {
        EngineClient client(QString::fromStdString(test::cliPath()));
        QSignalSpy failed(&client, &EngineClient::failed);
        client.run(request("x = 1 / 0\n", "bad.py"));
        QVERIFY(failed.wait(30000));
        QCOMPARE(failed.at(0).at(1).toString(), QString("script_error"));
        QCOMPARE(failed.at(0).at(2).toString(), QString("bad.py:1:5: error: ZeroDivisionError: division by zero"));
    }

    void aBurstOfEventsIsHandledInSlicesInOrder() {
        // A stand-in engine that answers any request with 500 events and the answer, written
        // at once, then waits for its input to close.
        QTemporaryDir dir;
        QFile burst(dir.filePath("burst.jsonl"));
        QVERIFY(burst.open(QIODevice::WriteOnly));
        for (int i = 0; i < 500; ++i) burst.write(QString(R"({"request":1,"event":{"type":"log","i":%1}})""\n").arg(i).toUtf8());
        burst.write(R"({"id":1,"result":{}})""\n");
        burst.close();
        QFile engine(dir.filePath("engine.sh"));
        QVERIFY(engine.open(QIODevice::WriteOnly));
        engine.write(QString("#!/bin/sh\nread request\ncat '%1'\ncat > /dev/null\n").arg(burst.fileName()).toUtf8());
        engine.close();
        engine.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);

        EngineClient client(engine.fileName());
        int ticks = 0, ticksAtFirst = -1, ticksAtLast = -1;
        QTimer ticker;
        connect(&ticker, &QTimer::timeout, [&] { ++ticks; });
        std::vector<int> order;
        connect(&client, &EngineClient::eventReceived, [&](int, const nlohmann::json& e) {
            order.push_back(e.value("i", -1));
            if (order.size() == 1) ticksAtFirst = ticks;
            ticksAtLast = ticks;
            QElapsedTimer work;  // each event costs the GUI 0.2 ms: 100 ms for the burst
            work.start();
            while (work.nsecsElapsed() < 200'000) {}
        });
        QSignalSpy answered(&client, &EngineClient::answered);
        QCOMPARE(client.run(request("pass\n", "burst.py")), 1);
        QThread::msleep(500);  // the whole burst is in the pipe before the GUI reads any of it
        ticker.start(0);
        QVERIFY(answered.wait(10000));
        QCOMPARE(int(order.size()), 500);
        for (int i = 0; i < 500; ++i) QCOMPARE(order[i], i);
        QVERIFY2(ticksAtLast - ticksAtFirst >= 5, qPrintable(QString("the GUI ran %1 times during the burst").arg(ticksAtLast - ticksAtFirst)));
    }
};

QTEST_MAIN(EngineClientTest)
#include "engine_client_test.moc"
