#pragma once
// Reads a file on a worker thread and hands the result to the GUI thread: what opening a
// large log or trace does so the window keeps painting. `load` may throw Error; `done` or
// `failed` (with the error's text) then runs on `context`'s thread, unless `context` is gone.

#include <functional>
#include <memory>
#include <optional>

#include <QFutureWatcher>
#include <QString>
#include <QtConcurrent/QtConcurrentRun>

#include "core/error.h"

namespace fusescope::gui {

template <typename T>
void loadInBackground(QObject* context, std::function<T()> load, std::function<void(T)> done,
                      std::function<void(const QString&)> failed) {
    struct Loaded {
        std::optional<T> value;
        QString error;
    };
    auto* watcher = new QFutureWatcher<std::shared_ptr<Loaded>>(context);
    QObject::connect(watcher, &QFutureWatcherBase::finished, context, [watcher, done, failed] {
        watcher->deleteLater();
        std::shared_ptr<Loaded> loaded = watcher->result();
        if (loaded->value) done(std::move(*loaded->value));
        else failed(loaded->error);
    });
    watcher->setFuture(QtConcurrent::run([load] {
        auto loaded = std::make_shared<Loaded>();
        try {
            loaded->value = load();
        } catch (const Error& e) {
            loaded->error = QString::fromUtf8(e.what());
        }
        return loaded;
    }));
}

}  // namespace fusescope::gui
