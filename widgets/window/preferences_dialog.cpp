#include "window/preferences_dialog.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

#include "engine/torch_side.h"

namespace fusescope::gui {

PreferencesDialog::PreferencesDialog(QWidget* parent) : QDialog(parent), python_(new QLineEdit(TorchSide::savedPython(), this)) {
    setWindowTitle(tr("Preferences"));
    python_->setPlaceholderText(tr("python3 on PATH"));
    python_->setToolTip(tr("A Python with torch installed (e.g. a virtual environment's bin/python); empty: python3 found on PATH"));
    auto* browse = new QPushButton(tr("Browse..."), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        QString path = QFileDialog::getOpenFileName(this, tr("Python with torch"));
        if (!path.isEmpty()) python_->setText(path);
    });
    auto* pythonRow = new QHBoxLayout;
    pythonRow->addWidget(python_, 1);
    pythonRow->addWidget(browse);
    auto* form = new QFormLayout;
    form->addRow(tr("Python with torch:"), pythonRow);
    auto* note = new QLabel(tr("Runs the script under real PyTorch for Run Under PyTorch Too, with TORCH_TRACE into a temporary folder."), this);
    note->setWordWrap(true);
    form->addRow(note);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);
    resize(560, sizeHint().height());
}

void PreferencesDialog::accept() {
    TorchSide::savePython(python_->text().trimmed());
    QDialog::accept();
}

}  // namespace fusescope::gui
