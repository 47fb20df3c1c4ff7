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
