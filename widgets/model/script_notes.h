#pragma once
// What the script editor shows under the lines of a run's script (as annotations): the
// script error, each graph break, and each recompile with the guard failures behind it.
// Only notes about the script itself (the file the run named) are kept.

#include <QList>
#include <QString>

#include "model/run_store.h"

namespace fusescope::gui {

struct ScriptNote {
    enum class Kind { Error, GraphBreak, Recompile };
    Kind kind = Kind::Error;
    int line = 0;  // 1-based
    QString text;
};

QList<ScriptNote> scriptNotes(const RunStore& store, const QString& scriptFile);

}  // namespace fusescope::gui
