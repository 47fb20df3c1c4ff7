#include "window/recent_files.h"

#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace fusescope::gui {

namespace {
const char* const kKey = "files/recent";
}

RecentFiles::RecentFiles(QMenu* menu, QObject* parent) : QObject(parent), menu_(menu) { rebuildMenu(); }

QStringList RecentFiles::paths() const {
    QStringList out;
    for (const QString& path : QSettings().value(kKey).toStringList())
        if (QFileInfo::exists(path)) out << path;
    return out;
}

void RecentFiles::add(const QString& path) {
    QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList list = paths();
    list.removeAll(absolute);
    list.prepend(absolute);
    QSettings().setValue(kKey, list.mid(0, kMaximum));
    rebuildMenu();
}

void RecentFiles::rebuildMenu() {
    menu_->clear();
    const QStringList list = paths();
    for (int i = 0; i < list.size(); ++i) {
        // &1 .. &9 and 1&0 give each entry a keyboard accelerator.
        QString number = i < 9 ? QString("&%1").arg(i + 1) : QString("1&0");
        QString path = list[i];
        menu_->addAction(QString("%1  %2").arg(number, QDir::toNativeSeparators(path)), this, [this, path] { Q_EMIT openRequested(path); });
    }
    menu_->setEnabled(!list.isEmpty());
}

}  // namespace fusescope::gui
