#include "model/script_notes.h"

#include <QCoreApplication>

#include "model/engine_words.h"

namespace fusescope::gui {

namespace {

// A location's line when it is in the script, else 0.
int lineIn(const SourceLocation& where, const QString& scriptFile) {
    return QString::fromStdString(where.file) == scriptFile ? where.line : 0;
}

// The script line of the call that started a compile (its innermost frame in the script), else 0.
int callLineOf(const RunStore& store, const std::string& compileId, const QString& scriptFile) {
    for (int i : store.compileEvents(compileId))
        if (const auto* started = std::get_if<CompileStartedEvent>(&store.at(i))) {
            const auto& stack = started->userStack;
            for (auto frame = stack.rbegin(); frame != stack.rend(); ++frame)
                if (QString::fromStdString(frame->file) == scriptFile && frame->line > 0) return frame->line;
        }
    return 0;
}

}  // namespace

QList<ScriptNote> scriptNotes(const RunStore& store, const QString& scriptFile) {
    QList<ScriptNote> notes;
    auto q = [](const std::string& s) { return QString::fromStdString(s); };
    for (const Event& e : store.events()) {
        if (const auto* error = std::get_if<ErrorEvent>(&e)) {
            if (int line = lineIn(error->where, scriptFile)) notes.append({ScriptNote::Kind::Error, line, q(error->message)});
        } else if (const auto* graphBreak = std::get_if<GraphBreakEvent>(&e)) {
            // The innermost frame in the script: a break inside a helper it calls is shown there too.
            const auto& stack = graphBreak->userStack;
            for (auto frame = stack.rbegin(); frame != stack.rend(); ++frame)
                if (q(frame->file) == scriptFile && frame->line > 0) {
                    notes.append({ScriptNote::Kind::GraphBreak, frame->line,
                                  QCoreApplication::translate("ScriptNotes", "graph break (%1): %2").arg(q(graphBreak->compileId), inInterfaceLanguage(q(graphBreak->reason)))});
                    break;
                }
        } else if (const auto* recompile = std::get_if<RecompileEvent>(&e)) {
            int line = lineIn(recompile->where, scriptFile);
            if (!line) continue;
            QStringList failures;
            for (const QString& l : q(recompile->message).split('\n'))
                if (l.trimmed().startsWith("- ")) failures << inInterfaceLanguage(l.trimmed().mid(2));
            // Both ends: the def that recompiled, and the call that made it.
            int call = callLineOf(store, recompile->compileId, scriptFile);
            QString id = q(recompile->compileId);
            notes.append({ScriptNote::Kind::Recompile, line,
                          call > 0 ? QCoreApplication::translate("ScriptNotes", "recompiled as %1 by the call on line %2, because of guard failures:\n%3")
                                         .arg(id).arg(call).arg(failures.join('\n'))
                                   : QCoreApplication::translate("ScriptNotes", "recompiled as %1 because of guard failures:\n%2").arg(id, failures.join('\n'))});
            if (call > 0 && call != line)
                notes.append({ScriptNote::Kind::Recompile, call,
                              QCoreApplication::translate("ScriptNotes", "this call recompiled %1 as %2 (defined on line %3)")
                                  .arg(q(recompile->function), id).arg(line)});
        }
    }
    return notes;
}

}  // namespace fusescope::gui
