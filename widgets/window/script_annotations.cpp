#include "window/script_annotations.h"

#include <algorithm>

#include <QMap>
#include <Qsci/qsciscintilla.h>
#include <Qsci/qscistyle.h>

#include "model/run_store.h"
#include "model/script_notes.h"
#include "views/script_tabs.h"

namespace fusescope::gui {

ScriptAnnotations::ScriptAnnotations(ScriptTabs* tabs, const RunStore* store, QObject* parent)
    : QObject(parent), tabs_(tabs), store_(store) {
    timer_.setSingleShot(true);
    timer_.setInterval(150);
    connect(&timer_, &QTimer::timeout, this, &ScriptAnnotations::redo);
    connect(store_, &RunStore::eventAppended, this, [this](int index) {
        const Event& event = store_->at(index);
        if (std::holds_alternative<ErrorEvent>(event) || std::holds_alternative<GraphBreakEvent>(event) ||
            std::holds_alternative<RecompileEvent>(event))
            timer_.start();  // coalesced
    });
    connect(store_, &RunStore::reset, this, &ScriptAnnotations::redo);
}

void ScriptAnnotations::redo() {
    timer_.stop();
    const QFont font = tabs_->script()->font();
    static const QsciStyle error(-1, "error", QColor(150, 0, 0), QColor(255, 230, 230), font);
    static const QsciStyle graphBreak(-1, "graph break", QColor(120, 70, 0), QColor(255, 243, 214), font);
    static const QsciStyle recompile(-1, "recompile", QColor(0, 70, 140), QColor(228, 239, 255), font);
    for (QsciScintilla* editor : tabs_->editors()) {
        editor->clearAnnotations();
        QMap<int, QList<ScriptNote>> byLine;
        for (const ScriptNote& note : scriptNotes(*store_, tabs_->fileOf(editor))) byLine[note.line].append(note);
        for (auto it = byLine.begin(); it != byLine.end(); ++it) {
            QStringList texts;
            for (const ScriptNote& note : it.value()) texts << note.text;
            // The most serious note colours the whole annotation.
            auto worst = std::min_element(it.value().begin(), it.value().end(),
                                          [](const ScriptNote& a, const ScriptNote& b) { return a.kind < b.kind; })->kind;
            const QsciStyle& style = worst == ScriptNote::Kind::Error ? error : worst == ScriptNote::Kind::GraphBreak ? graphBreak : recompile;
            editor->annotate(it.key() - 1, texts.join('\n'), style);
        }
        editor->setAnnotationDisplay(QsciScintilla::AnnotationBoxed);
    }
}

}  // namespace fusescope::gui
