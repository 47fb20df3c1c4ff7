#include "model/script_notes.h"

#include <QCoreApplication>

#include "model/json_fields.h"

namespace fusescope::gui {

namespace {

int intField(const nlohmann::json& object, const char* key) {
    auto it = object.find(key);
    return it != object.end() && it->is_number_integer() ? it->get<int>() : 0;
}

// The location object at `key` when it is in the script: its line, else 0.
int lineIn(const nlohmann::json& event, const char* key, const QString& scriptFile) {
    auto where = event.find(key);
    if (where == event.end() || !where->is_object() || qstringField(*where, "file") != scriptFile) return 0;
    return intField(*where, "line");
}

}  // namespace

QList<ScriptNote> scriptNotes(const RunStore& store, const QString& scriptFile) {
    QList<ScriptNote> notes;
    for (const auto& e : store.events()) {
        const std::string type = stringField(e, "type");
        if (type == "error") {
            if (int line = lineIn(e, "where", scriptFile))
                notes.append({ScriptNote::Kind::Error, line, qstringField(e, "message")});
        } else if (type == "graph_break") {
            // The innermost frame in the script: a break inside a helper it calls is shown there too.
            auto stack = e.find("user_stack");
            if (stack == e.end() || !stack->is_array()) continue;
            for (auto frame = stack->rbegin(); frame != stack->rend(); ++frame)
                if (frame->is_object() && qstringField(*frame, "file") == scriptFile && intField(*frame, "line") > 0) {
                    notes.append({ScriptNote::Kind::GraphBreak, intField(*frame, "line"),
                                  QCoreApplication::translate("ScriptNotes", "graph break (%1): %2").arg(qstringField(e, "compile_id"), qstringField(e, "reason"))});
                    break;
                }
        } else if (type == "recompile") {
            int line = lineIn(e, "where", scriptFile);
            if (!line) continue;
            QStringList failures;
            for (const QString& l : qstringField(e, "message").split('\n'))
                if (l.trimmed().startsWith("- ")) failures << l.trimmed().mid(2);
            notes.append({ScriptNote::Kind::Recompile, line,
                          QCoreApplication::translate("ScriptNotes", "recompiled as %1 because of guard failures:\n%2").arg(qstringField(e, "compile_id"), failures.join('\n'))});
        }
    }
    return notes;
}

}  // namespace fusescope::gui
