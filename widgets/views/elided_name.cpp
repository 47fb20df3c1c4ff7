#include "views/elided_name.h"

#include <QLabel>
#include <QRegularExpression>

namespace fusescope::gui {

namespace {

QString elidedName(const QString& name, int maxChars) {
    int keep = (maxChars - 1) / 2;
    QString head = name.left(keep), tail = name.right(keep);
    // Cut at the separators where there are some, so no part is shown halved.
    if (int cut = head.lastIndexOf('_'); cut > 0) head.truncate(cut + 1);
    if (int cut = tail.indexOf('_'); cut >= 0 && cut + 1 < tail.size()) tail.remove(0, cut);
    return head + QChar(0x2026) + tail;
}

}  // namespace

QString elideLongNames(const QString& text, int maxChars) {
    static const QRegularExpression name(QStringLiteral("\\w+"));
    QString out;
    qsizetype done = 0;
    for (auto it = name.globalMatch(text); it.hasNext();) {
        QRegularExpressionMatch m = it.next();
        if (m.capturedLength() <= maxChars) continue;
        out += text.mid(done, m.capturedStart() - done) + elidedName(m.captured(), maxChars);
        done = m.capturedEnd();
    }
    return done == 0 ? text : out + text.mid(done);
}

void setTextElidingNames(QLabel* label, const QString& text) {
    QString shown = elideLongNames(text);
    label->setText(shown);
    label->setToolTip(shown == text ? QString() : text);
}

}  // namespace fusescope::gui
