#include "window/script_file.h"

#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QSaveFile>
#include <QSettings>
#include <QStandardPaths>
#include <QTimer>
#include <Qsci/qsciscintilla.h>

namespace fusescope::gui {

ScriptFile::ScriptFile(QsciScintilla* editor, QWidget* window) : QObject(window), editor_(editor), window_(window) {
    auto* timer = new QTimer(this);  // copies edits aside while they differ from what was saved
    connect(timer, &QTimer::timeout, this, &ScriptFile::autosave);
    timer->start(3000);
}

QString ScriptFile::autosavePath() {
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath("autosave.py");
}

void ScriptFile::open(const QString& text, const QString& path) {
    editor_->setText(text);
    path_ = path;
    discardAutosave();
}

bool ScriptFile::save(bool choosePath) {
    QString path = path_;
    if (path.isEmpty() || choosePath)
        path = QFileDialog::getSaveFileName(window_, choosePath ? tr("Save Script As") : tr("Save Script"), path_, tr("Scripts (*.py)"));
    if (path.isEmpty()) return false;
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(editor_->text().toUtf8()) < 0) {
        Q_EMIT failed(tr("Save Script"), tr("Cannot write %1: %2").arg(path, file.errorString()));
        return false;
    }
    const bool renamed = path != path_;
    path_ = path;
    discardAutosave();
    if (renamed) Q_EMIT pathChanged(path_);
    Q_EMIT status(tr("Saved %1").arg(path));
    return true;
}

bool ScriptFile::mayClose(bool interactive) {
    // An edit made since the last autosave would be lost: ask (the autosave timer runs every 3 s).
    if (!editor_->isModified() || !interactive) return true;
    const QString name = path_.isEmpty() ? QString("script.py") : QFileInfo(path_).fileName();
    auto answer = QMessageBox::question(window_, tr("Save Changes"), tr("Save the changes to %1 before closing?").arg(name),
                                        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel || (answer == QMessageBox::Save && !save())) return false;
    if (answer == QMessageBox::Discard) discardAutosave();
    return true;
}

void ScriptFile::autosave() {
    if (!editor_->isModified()) return;
    QDir().mkpath(QFileInfo(autosavePath()).path());
    QSaveFile file(autosavePath());
    if (file.open(QIODevice::WriteOnly) && file.write(editor_->text().toUtf8()) >= 0 && file.commit())
        QSettings().setValue("autosave/scriptPath", path_);
}

void ScriptFile::restoreAutosave() {
    QFile file(autosavePath());
    if (!file.open(QIODevice::ReadOnly)) return;
    editor_->setText(QString::fromUtf8(file.readAll()));
    editor_->setModified(true);
    path_ = QSettings().value("autosave/scriptPath").toString();
    QTimer::singleShot(0, this, [this] { Q_EMIT status(tr("Restored the unsaved script of the last session")); });
}

void ScriptFile::discardAutosave() {
    QFile::remove(autosavePath());
    editor_->setModified(false);
}

}  // namespace fusescope::gui
