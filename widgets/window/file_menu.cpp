#include "window/file_menu.h"

#include <QFileDialog>
#include <QInputDialog>
#include <QLineEdit>
#include <QFileInfo>
#include <QMenu>

#include "window/main_window.h"
#include "window/recent_files.h"

namespace fusescope::gui {

namespace {

// The path the user picked, with `suffix` added when they typed none.
QString withSuffix(const QString& path, const QString& suffix) {
    return path.isEmpty() || !QFileInfo(path).suffix().isEmpty() ? path : path + "." + suffix;
}

}  // namespace

RecentFiles* FileMenu::fill(QMenu* file, MainWindow* window) {
    file->addAction(tr("&Open Script, Bundle or Trace Log..."), QKeySequence::Open, window, [window] {
        QString path = QFileDialog::getOpenFileName(window, tr("Open"), {},
                                                    tr("Scripts, bundles, PyTorch trace logs and profiler traces (*.py *.fscope *.log *.json)"));
        if (!path.isEmpty()) window->openFile(path);
    });
    file->addAction(tr("Open PyTorch &Trace Folder..."), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), window, [window] {
        QString path = QFileDialog::getExistingDirectory(window, tr("Open the folder TORCH_TRACE named"));
        if (!path.isEmpty()) window->openFile(path);
    });
    file->addAction(tr("Open PyTorch Trace &Beside..."), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_O), window, [window] {
        QString path = QFileDialog::getExistingDirectory(window, tr("The TORCH_TRACE folder of a PyTorch run of this script"));
        if (!path.isEmpty()) window->openTorchTraceBeside(path);
    });
    auto* recent = new RecentFiles(file->addMenu(tr("Open &Recent")), window);
    QObject::connect(recent, &RecentFiles::openRequested, window, &MainWindow::openFile);
    file->addAction(tr("&Save Script"), QKeySequence::Save, window, [window] { window->saveScript(); });
    file->addAction(tr("Save Script &As..."), QKeySequence::SaveAs, window, [window] { window->saveScript(true); });
    file->addAction(tr("E&xport Bundle..."), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E), window, [window] {
        if (!window->hasBundleToExport()) return;
        QString path = QFileDialog::getSaveFileName(window, tr("Export Bundle"), {}, tr("Trace bundles (*.fscope)"));
        if (!path.isEmpty()) window->exportBundle(withSuffix(path, "fscope"));
    });
    file->addAction(tr("Export Trace for &Perfetto..."), window, [window] {
        QString path = QFileDialog::getSaveFileName(window, tr("Export Trace for Perfetto"), {}, tr("Chrome trace JSON (*.json)"));
        if (!path.isEmpty()) window->exportPerfettoTrace(withSuffix(path, "json"));
    });
    file->addAction(tr("&Export Graph Image..."), window, [window] {
        QString filter;
        QString path = QFileDialog::getSaveFileName(window, tr("Export Graph Image"), {}, tr("PNG image (*.png);;SVG drawing (*.svg)"), &filter);
        if (!path.isEmpty()) window->exportGraphImage(withSuffix(path, filter.contains("svg") ? "svg" : "png"));  // the format the filter named
    });
    file->addSeparator();
    file->addAction(tr("Connect to &Engine..."), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K), window, [window] {
        bool ok = false;
        QString address = QInputDialog::getText(window, tr("Connect to Engine"),
                                                tr("Where the engine runs: ssh://user@host[:port]/path/to/fusescope-cli (OpenSSH with your "
                                                   "keys and config), or empty for this machine's."),
                                                QLineEdit::Normal, window->engineAddressText(), &ok);
        if (ok) window->connectEngine(address.trimmed());
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, window, &QWidget::close);
    return recent;
}

}  // namespace fusescope::gui
