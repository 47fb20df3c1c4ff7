#include "window/exports.h"

#include <QApplication>
#include <QFile>
#include <QSaveFile>
#include <QScopeGuard>

#include "bundle/bundle_reader.h"
#include "bundle/bundle_torch_side.h"
#include "bundle/bundle_writer.h"
#include "core/error.h"
#include "model/trace_log.h"

namespace fusescope::gui {

QString copyBundle(const QString& bundle, const QString& path) {
    if (QFileInfo(path).absoluteFilePath() == QFileInfo(bundle).absoluteFilePath()) return {};
    // Copy under a temporary name, then rename.
    QString partial = path + ".part";
    QFile::remove(partial);
    if (!QFile::copy(bundle, partial) || (QFile::exists(path) && !QFile::remove(path)) || !QFile::rename(partial, path)) {
        QFile::remove(partial);
        return QApplication::tr("Cannot write %1.").arg(path);
    }
    return {};
}

QString writeBundleWithTorchSide(const QString& bundle, const QString& torchLog, const QString& path) {
    try {
        QApplication::setOverrideCursor(Qt::WaitCursor);
        auto restoreCursor = qScopeGuard([] { QApplication::restoreOverrideCursor(); });
        std::map<std::string, std::string> entries = readBundle(bundle.toStdString(), {}, BundleEvents::Unparsed).files;
        putTorchSide(entries, torchLog.toStdString());
        writeBundle(path.toStdString(), std::move(entries));  // written anew, atomically
    } catch (const Error& e) {
        return QApplication::tr("Cannot write %1: %2").arg(path, QString::fromStdString(e.what()));
    }
    return {};
}

QString writeChromeTrace(const TraceLog& traces, const QString& path) {
    QSaveFile file(path);
    std::string text = chromeTraceText(traces);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), static_cast<qint64>(text.size())) != static_cast<qint64>(text.size()) ||
        !file.commit())
        return QApplication::tr("Cannot write %1: %2").arg(path, file.errorString());
    return {};
}

}  // namespace fusescope::gui
