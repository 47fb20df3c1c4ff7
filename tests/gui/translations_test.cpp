// The Chinese translation is complete: every message of translations/fusescope_zh_CN.ts has a
// finished, non-empty translation, with the same %-placeholders as its source; and engine
// messages of a known shape are shown in it.
#include <QFile>
#include <QRegularExpression>
#include <QTest>
#include <QTranslator>
#include <QXmlStreamReader>

#include "gui_test_support.h"
#include "model/engine_words.h"
#include "model/fusion_steps_model.h"
#include "model/recompile_reasons_model.h"
#include "model/run_store.h"

class TranslationsTest : public QObject {
    Q_OBJECT
private slots:
    void zhCnIsCompleteAndKeepsPlaceholders() {
        QFile file(QString::fromStdString(fusescope::gui::test::sourcePath("translations/fusescope_zh_CN.ts")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&file);
        int messages = 0;
        QString source;
        QRegularExpression placeholder("[%$]\\d");  // Qt's %1, and $1 in the doctor's advice (std::regex's format)
        auto placeholders = [&](const QString& text) {
            QStringList found;
            for (auto it = placeholder.globalMatch(text); it.hasNext();) found << it.next().captured();
            found.sort();
            return found;
        };
        while (xml.readNext() != QXmlStreamReader::EndDocument && !xml.hasError()) {
            if (!xml.isStartElement()) continue;
            if (xml.name() == u"source") {
                source = xml.readElementText();
            } else if (xml.name() == u"translation") {
                ++messages;
                QString type = xml.attributes().value("type").toString();
                QString text = xml.readElementText(QXmlStreamReader::IncludeChildElements);  // plural forms are <numerusform>s
                QVERIFY2(type.isEmpty(), qPrintable("unfinished: " + source));
                QVERIFY2(!text.isEmpty(), qPrintable("empty: " + source));
                QCOMPARE(placeholders(text), placeholders(source));
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY2(messages >= 80, qPrintable(QString::number(messages)));
    }

    // English holds the plural forms: every plural message of the Chinese file, singular and
    // plural ("1 op", "3 ops" where the source says "%n op(s)").
    void englishPluralsCoverEveryPluralMessage() {
        auto pluralSources = [](const std::string& relative) {
            QFile file(QString::fromStdString(fusescope::gui::test::sourcePath(relative)));
            if (!file.open(QIODevice::ReadOnly)) return QStringList{"cannot read " + QString::fromStdString(relative)};
            QXmlStreamReader xml(&file);
            QStringList out;
            bool numerus = false;
            while (xml.readNext() != QXmlStreamReader::EndDocument && !xml.hasError()) {
                if (!xml.isStartElement()) continue;
                if (xml.name() == u"message") numerus = xml.attributes().value("numerus") == u"yes";
                else if (xml.name() == u"source" && numerus) out << xml.readElementText();
            }
            out.sort();
            return out;
        };
        QStringList chinese = pluralSources("translations/fusescope_zh_CN.ts");
        QVERIFY(chinese.size() >= 5);
        QCOMPARE(pluralSources("translations/fusescope_en.ts"), chinese);
        QTranslator en;
        QVERIFY(en.load(QStringLiteral(FUSESCOPE_EN_QM)));
        QCoreApplication::installTranslator(&en);
        QCOMPARE(QCoreApplication::translate("fusescope::gui::TraceView", "%n span(s)", nullptr, 1), QString("1 span"));
        QCOMPARE(QCoreApplication::translate("fusescope::gui::TraceView", "%n span(s)", nullptr, 3), QString("3 spans"));
        QCOMPARE(QCoreApplication::translate("fusescope::gui::GraphView", "%1\n%2 · %n op(s)", nullptr, 600), QString("%1\n%2 · 600 ops"));
        QCoreApplication::removeTranslator(&en);
    }

    // Engine messages of a known shape (guard failures, graph-break reasons) are shown in
    // Chinese with their own values; in English, and in any other shape, as they came.
    void engineWordsOfAKnownShapeAreTranslated() {
        const QString sizeMismatch = "tensor 'L['a']' size mismatch at index 0. expected 3, actual 2";
        const QString unknown = "a message of no known shape, holding %2";
        QCOMPARE(fusescope::gui::inInterfaceLanguage(sizeMismatch), sizeMismatch);
        QTranslator zh;
        QVERIFY(zh.load(QStringLiteral(FUSESCOPE_ZH_CN_QM)));
        QCoreApplication::installTranslator(&zh);
        QCOMPARE(fusescope::gui::inInterfaceLanguage(sizeMismatch), QString("张量 'L['a']' 第 0 维大小不符：期望 3，实际 2"));
        QCOMPARE(fusescope::gui::inInterfaceLanguage("0/1: " + sizeMismatch), QString("0/1: 张量 'L['a']' 第 0 维大小不符：期望 3，实际 2"));
        QCOMPARE(fusescope::gui::inInterfaceLanguage("Failed to trace builtin operator\n" + unknown),
                 "无法追踪内置运算符\n" + unknown);
        QCOMPARE(fusescope::gui::inInterfaceLanguage("Unsupported Tensor.item() call with capture_scalar_outputs=False"),
                 QString("capture_scalar_outputs=False 时不支持调用 Tensor.item()"));
        QCOMPARE(fusescope::gui::inInterfaceLanguage("0/0: GLOBAL_STATE changed: grad_mode"), QString("0/0: 全局状态已改变：grad_mode"));

        // The tables show them so: a recompile's guard failures, a fusion step's kind and reason.
        fusescope::gui::RunStore store;
        store.replace(fusescope::gui::test::loadFixture("recompiles"));
        fusescope::gui::RecompileReasonsModel recompiles(&store);
        QVERIFY(recompiles.rowCount() > 0);
        const QString reasons = recompiles.index(0, fusescope::gui::RecompileReasonsModel::ReasonsColumn).data().toString();
        QVERIFY2(reasons.contains("维大小不符") && !reasons.contains("mismatch"), qPrintable(reasons));
        // And the doctor's advice for it, the engine's template worded in Chinese, its values put back.
        const QString fix = recompiles.index(0, fusescope::gui::RecompileReasonsModel::FixColumn).data().toString();
        QVERIFY2(fix.startsWith("L['a'] 的第 0 维大小变了（3 变为 2）") && fix.contains("`torch._dynamo.mark_dynamic(L['a'], 0)`"), qPrintable(fix));
        store.replace(fusescope::gui::test::loadFixture("seed000_inductor"));
        fusescope::gui::FusionStepsModel steps(&store);
        steps.setCompile("0/0", {});
        QCOMPARE(steps.index(0, fusescope::gui::FusionStepsModel::KindColumn).data().toString(), QString("纵向"));
        QCOMPARE(steps.index(0, fusescope::gui::FusionStepsModel::ReasonColumn).data().toString(),
                 QString("已融合（纵向）：消费者在每个元素写入处读取它；迭代 (256,)"));
        QCoreApplication::removeTranslator(&zh);
    }
};

QTEST_MAIN(TranslationsTest)
#include "translations_test.moc"
