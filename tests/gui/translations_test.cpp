// The Chinese translation is complete: every message of translations/fusescope_zh_CN.ts has a
// finished, non-empty translation, with the same %-placeholders as its source.
#include <QFile>
#include <QRegularExpression>
#include <QTest>
#include <QXmlStreamReader>

#include "gui_test_support.h"

class TranslationsTest : public QObject {
    Q_OBJECT
private slots:
    void zhCnIsCompleteAndKeepsPlaceholders() {
        QFile file(QString::fromStdString(fusescope::gui::test::sourcePath("translations/fusescope_zh_CN.ts")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&file);
        int messages = 0;
        QString source;
        QRegularExpression placeholder("%\\d");
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
};

QTEST_MAIN(TranslationsTest)
#include "translations_test.moc"
