#include "engine/project_files.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QStringDecoder>

namespace fusescope::gui {

namespace {

constexpr int kMaxFiles = 2000;
constexpr qint64 kMaxBytes = 32 << 20;

// Folders whose Python is not the project's: caches, version control, virtual environments.
bool skipped(const QFileInfo& dir) {
    const QString name = dir.fileName();
    return name.startsWith('.') || name == "__pycache__" || name == "site-packages" || name == "node_modules" ||
           QFileInfo::exists(dir.filePath() + "/pyvenv.cfg");
}

void gather(const QDir& dir, ProjectFiles& out, qint64& bytes) {
    for (const QFileInfo& file : dir.entryInfoList({"*.py"}, QDir::Files, QDir::Name)) {
        QFile f(file.absoluteFilePath());
        if (out.texts.size() >= kMaxFiles || bytes + file.size() > kMaxBytes || !f.open(QIODevice::ReadOnly)) {
            ++out.leftOut;
            continue;
        }
        const QByteArray text = f.readAll();
        QStringDecoder utf8(QStringDecoder::Utf8);
        (void)utf8.decode(text);
        if (utf8.hasError()) {  // the protocol is JSON: text only
            ++out.leftOut;
            continue;
        }
        bytes += text.size();
        out.texts[QDir::cleanPath(file.absoluteFilePath()).toStdString()] = text.toStdString();
    }
    for (const QFileInfo& sub : dir.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot | QDir::NoSymLinks, QDir::Name)) {
        if (out.texts.size() >= kMaxFiles || bytes >= kMaxBytes) {  // full: what is below is not looked through
            ++out.leftOut;
            continue;
        }
        if (!skipped(sub)) gather(QDir(sub.absoluteFilePath()), out, bytes);
    }
}

}  // namespace

ProjectFiles projectFiles(const QString& scriptPath) {
    ProjectFiles out;
    QFileInfo script(scriptPath);
    if (scriptPath.isEmpty() || !script.isAbsolute() || !script.exists()) return out;
    qint64 bytes = 0;
    gather(script.absoluteDir(), out, bytes);
    return out;
}

}  // namespace fusescope::gui
