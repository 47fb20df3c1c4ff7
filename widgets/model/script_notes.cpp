#include "model/script_notes.h"

#include <QCoreApplication>

#include "model/engine_words.h"

namespace fusescope::gui {

namespace {

// A location's line when it is in the script, else 0.
int lineIn(const SourceLocation& where, const QString& scriptFile) {
    return QString::fromStdString(where.file) == scriptFile ? where.line : 0;
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
            notes.append({ScriptNote::Kind::Recompile, line,
                          QCoreApplication::translate("ScriptNotes", "recompiled as %1 because of guard failures:\n%2").arg(q(recompile->compileId), failures.join('\n'))});
        }
    }
    return notes;
}

}  // namespace fusescope::gui
