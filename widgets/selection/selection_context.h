#pragma once
// The one selection every view shares (DESIGN.md, "GUI structure"; RenderDoc's pattern):
// a view reports what the user picked, every view follows. Setting the same value again
// emits nothing, so views that follow each other cannot loop.
//
// Within a compile, the selection is a captured-graph node and the scheduler node (buffer
// or fused group) it went into; picking either sets both through the compile's provenance.

#include <QObject>
#include <QString>

namespace fusescope::gui {

class SelectionContext : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    const QString& compileId() const { return compileId_; }
    const QString& graphNode() const { return graphNode_; }
    const QString& buffer() const { return buffer_; }

    // A new compile clears the node selection.
    void setCompileId(const QString& id) {
        if (id == compileId_) return;
        compileId_ = id;
        graphNode_.clear();
        buffer_.clear();
        Q_EMIT compileChanged(id);
    }
    void setNode(const QString& graphNode, const QString& buffer) {
        if (graphNode == graphNode_ && buffer == buffer_) return;
        graphNode_ = graphNode;
        buffer_ = buffer;
        Q_EMIT nodeChanged(graphNode, buffer);
    }

Q_SIGNALS:
    void compileChanged(const QString& compileId);
    void nodeChanged(const QString& graphNode, const QString& buffer);

private:
    QString compileId_, graphNode_, buffer_;
};

}  // namespace fusescope::gui
