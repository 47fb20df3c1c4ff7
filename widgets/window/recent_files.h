#pragma once
// File > Open Recent: the last scripts and bundles opened, newest first, kept in QSettings
// ("files/recent") so they survive restarts. Files that no longer exist are dropped.

#include <QObject>
#include <QStringList>

class QMenu;

namespace fusescope::gui {

class RecentFiles : public QObject {
    Q_OBJECT
public:
    static constexpr int kMaximum = 10;
    RecentFiles(QMenu* menu, QObject* parent = nullptr);

    void add(const QString& path);  // moves it to the top
    QStringList paths() const;

Q_SIGNALS:
    void openRequested(const QString& path);

private:
    void rebuildMenu();

    QMenu* menu_;
};

}  // namespace fusescope::gui
