#pragma once
// The window's geometry and dock layout, kept between sessions. A layout that does not fit
// -- the window larger than its screen, or the editor in the middle squeezed by the docks --
// is never saved, and one saved before (by an older version, or on a bigger screen) is
// replaced by the default layout the first time the window shows.

#include <QByteArray>
#include <QObject>
#include <QSize>

class QMainWindow;
class QWidget;

namespace fusescope::gui {

class SavedLayout : public QObject {
    Q_OBJECT
public:
    // Call once the docks exist: takes their layout as the default, then restores the saved one.
    SavedLayout(QMainWindow* window, QWidget* central);

    // 1400 x 900, or less on a screen smaller than that.
    static QSize defaultSize(const QWidget& window);

    bool fits() const;
    void save() const;  // when the window closes: only a layout that fits
    void reset();       // View > Reset Layout: the default docks and size, every dock shown

Q_SIGNALS:
    // The restored layout did not fit and the default one took its place.
    void resetForNotFitting();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;  // the window's first show

private:
    QMainWindow* window_;
    QWidget* central_;
    QByteArray defaultState_;
    bool checkOnShow_ = false;  // a saved layout was restored: check it once it is laid out
};

}  // namespace fusescope::gui
