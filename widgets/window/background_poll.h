#pragma once
// Polls on a worker thread, one poll at a time, until destroyed: what follows a file a running
// program is still writing (a TORCH_TRACE log, a profiler trace). `poll` returns what to do on
// the GUI thread with what it found, or an empty function when nothing changed; it runs every
// `intervalMs`, or twice as long as the last poll took when that is longer (a large log is
// read again less often). `poll` must not touch the GUI, nor throw.

#include <functional>

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace fusescope::gui {

class BackgroundPoll : public QObject {
    Q_OBJECT
public:
    using Found = std::function<void()>;
    BackgroundPoll(std::function<Found()> poll, int intervalMs, QObject* parent);

private:
    void pollNow();

    std::function<Found()> poll_;
    int intervalMs_;
    QTimer timer_;
    QElapsedTimer took_;
};

}  // namespace fusescope::gui
