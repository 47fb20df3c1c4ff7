#pragma once
// The one selection every view shares (DESIGN.md, "GUI structure"; RenderDoc's pattern):
// a view reports what the user picked, every view follows. Setting the same value again
// emits nothing, so views that follow each other cannot loop.

#include <QObject>
#include <QString>

namespace fusescope::gui {

class SelectionContext : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    const QString& compileId() const { return compileId_; }
    void setCompileId(const QString& id) {
        if (id == compileId_) return;
        compileId_ = id;
        Q_EMIT compileChanged(id);
    }

signals:
    void compileChanged(const QString& compileId);

private:
    QString compileId_;
};

}  // namespace fusescope::gui
