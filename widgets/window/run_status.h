#pragma once
// The window's status bar: a message, and while a run works (or a file is read) a busy bar
// and Cancel (Esc), which stops the engine's run at its next statement. While a run streams
// in, the message says which stage the engine is at (capture, decompose, lower, schedule,
// codegen, compile, run).

#include <QObject>
#include <QString>

class QLabel;
class QProgressBar;
class QStatusBar;
class QToolButton;

namespace fusescope::gui {

class EngineClient;
class RunStore;

class RunStatus : public QObject {
    Q_OBJECT
public:
    RunStatus(QStatusBar* bar, EngineClient* engine, const RunStore* store);

    void setText(const QString& text);
    QString text() const;
    void setBusy(bool busy);       // a run or the minifier: the busy bar and Cancel
    void setReading(bool reading);  // a file read on a worker thread: the busy bar only
    // The file on show is followed as its program writes it ("" when none): an indicator.
    void setFollowing(const QString& file);
    QString following() const;

private:
    QLabel* text_;
    QLabel* following_;
    QProgressBar* progress_;
    QToolButton* cancel_;
};

}  // namespace fusescope::gui
