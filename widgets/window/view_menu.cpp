#include "window/view_menu.h"

#include <QActionGroup>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QSettings>

#include "window/saved_layout.h"

namespace fusescope::gui {

void ViewMenu::fill(QMenu* view, QMainWindow* window, SavedLayout* layout, std::function<void(const QString&)> say) {
    for (QDockWidget* d : window->findChildren<QDockWidget*>()) view->addAction(d->toggleViewAction());
    view->addSeparator();
    view->addAction(tr("&Reset Layout"), layout, &SavedLayout::reset);
    QMenu* language = view->addMenu(tr("&Language"));
    auto* group = new QActionGroup(language);
    const QString current = QSettings().value("ui/language").toString();
    for (const auto& [code, name] : {std::pair<QString, QString>{"", tr("System default")}, {"en", "English"}, {"zh_CN", "中文（简体）"}}) {
        QAction* a = language->addAction(name);
        a->setCheckable(true);
        a->setChecked(code == current);
        group->addAction(a);
        QObject::connect(a, &QAction::triggered, language, [say, code] {
            QSettings().setValue("ui/language", code);
            say(tr("The language changes at the next start."));
        });
    }
}

}  // namespace fusescope::gui
