#pragma once
// Edit > Preferences: the settings that have no place in the toolbar. For now the Python
// that runs scripts under real PyTorch ("Run Under PyTorch Too").

#include <QDialog>

class QLineEdit;

namespace fusescope::gui {

class PreferencesDialog : public QDialog {
    Q_OBJECT
public:
    explicit PreferencesDialog(QWidget* parent = nullptr);
    void accept() override;  // saves

private:
    QLineEdit* python_;
};

}  // namespace fusescope::gui
