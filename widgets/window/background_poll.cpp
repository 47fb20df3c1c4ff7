#include "window/background_poll.h"

#include <algorithm>

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace fusescope::gui {

BackgroundPoll::BackgroundPoll(std::function<Found()> poll, int intervalMs, QObject* parent)
    : QObject(parent), poll_(std::move(poll)), intervalMs_(intervalMs) {
    timer_.setSingleShot(true);
    connect(&timer_, &QTimer::timeout, this, &BackgroundPoll::pollNow);
    timer_.start(intervalMs_);
}

void BackgroundPoll::pollNow() {
    auto* watcher = new QFutureWatcher<Found>(this);  // gone with this object: a late result is dropped
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
        watcher->deleteLater();
        if (Found found = watcher->result()) found();
        timer_.start(std::max<qint64>(intervalMs_, 2 * took_.elapsed()));
    });
    took_.start();
    watcher->setFuture(QtConcurrent::run(poll_));
}

}  // namespace fusescope::gui
