#include "model/engine_words.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QStringList>

#include <iterator>
#include <vector>

namespace fusescope::gui {

namespace {

struct Shape {
    const char* pattern;   // the end of a line (all of it, or what follows "...: "), values captured
    const char* wording;   // the same line with %1, %2, ... for the captures
};

// The engine's fixed wordings (capture/guards.cpp, the global state a recompile names), the
// graph-break types it reports most (PyTorch 2.15's gb_type: script/graph_break_kinds.cpp)
// and its fusion decisions.
constexpr Shape kShapes[] = {
    {R"(tensor '(.+)' size mismatch at index (\d+)\. expected (\S+), actual (\S+))",
     QT_TRANSLATE_NOOP("EngineWords", "tensor '%1' size mismatch at index %2. expected %3, actual %4")},
    {R"(tensor '(.+)' stride mismatch at index (\d+)\. expected (\S+), actual (\S+))",
     QT_TRANSLATE_NOOP("EngineWords", "tensor '%1' stride mismatch at index %2. expected %3, actual %4")},
    {R"(tensor '(.+)' dtype mismatch\. expected (\S+), actual (\S+))",
     QT_TRANSLATE_NOOP("EngineWords", "tensor '%1' dtype mismatch. expected %2, actual %3")},
    {R"(tensor '(.+)' rank mismatch\. expected (\S+), actual (\S+))",
     QT_TRANSLATE_NOOP("EngineWords", "tensor '%1' rank mismatch. expected %2, actual %3")},
    {R"(Failed to trace builtin operator)", QT_TRANSLATE_NOOP("EngineWords", "Failed to trace builtin operator")},
    {R"(Data-dependent branching)", QT_TRANSLATE_NOOP("EngineWords", "Data-dependent branching")},
    {R"(Call to `torch\._dynamo\.graph_break\(\)`)", QT_TRANSLATE_NOOP("EngineWords", "Call to `torch._dynamo.graph_break()`")},
    {R"(Unsupported Tensor\.item\(\) call with capture_scalar_outputs=False)",
     QT_TRANSLATE_NOOP("EngineWords", "Unsupported Tensor.item() call with capture_scalar_outputs=False")},
    {R"(Unsupported Tensor\.backward\(\) call)", QT_TRANSLATE_NOOP("EngineWords", "Unsupported Tensor.backward() call")},
    {R"(GLOBAL_STATE changed: (\S+))", QT_TRANSLATE_NOOP("EngineWords", "GLOBAL_STATE changed: %1")},
    // The scheduler's fusion decisions (schedule/fusion.cpp), as the Fusion pane lists them.
    {R"(fused \(vertical\): consumers read each element where it is written; iteration (.+))",
     QT_TRANSLATE_NOOP("EngineWords", "fused (vertical): consumers read each element where it is written; iteration %1")},
    {R"(fused \(horizontal\): shared reads over iteration (.+))",
     QT_TRANSLATE_NOOP("EngineWords", "fused (horizontal): shared reads over iteration %1")},
    {R"(exceeds max fusion \((\d+) \+ (\d+) nodes > max_fusion_size = (\d+)\))",
     QT_TRANSLATE_NOOP("EngineWords", "exceeds max fusion (%1 + %2 nodes > max_fusion_size = %3)")},
    {R"((\S+) is an extern kernel)", QT_TRANSLATE_NOOP("EngineWords", "%1 is an extern kernel")},
    {R"(would create a cycle through (\S+))", QT_TRANSLATE_NOOP("EngineWords", "would create a cycle through %1")},
    {R"(iteration ranges differ (.+) vs (.+))", QT_TRANSLATE_NOOP("EngineWords", "iteration ranges differ %1 vs %2")},
    {R"((\S+) reads (\S+) at (.+) but (\S+) writes (.+))", QT_TRANSLATE_NOOP("EngineWords", "%1 reads %2 at %3 but %4 writes %5")},
};

const std::vector<QRegularExpression>& patterns() {
    static const std::vector<QRegularExpression> compiled = [] {
        std::vector<QRegularExpression> out;
        // The end of a line: what comes before ("0/1: " in a recompile's failures) stays.
        for (const Shape& s : kShapes) out.emplace_back("(?:^|(?<=: ))" + QString::fromUtf8(s.pattern) + "$");
        return out;
    }();
    return compiled;
}

// %1 .. %9 of `wording` replaced in one pass (a value holding "%2" stays as it is).
QString filledIn(const QString& wording, const QRegularExpressionMatch& match) {
    QString out;
    for (qsizetype i = 0; i < wording.size(); ++i) {
        int n = i + 1 < wording.size() ? wording[i + 1].digitValue() : -1;
        if (wording[i] == '%' && n >= 1 && n <= match.lastCapturedIndex()) {
            out += match.captured(n);
            ++i;
        } else {
            out += wording[i];
        }
    }
    return out;
}

QString lineInInterfaceLanguage(const QString& line) {
    for (size_t i = 0; i < std::size(kShapes); ++i)
        if (QRegularExpressionMatch match = patterns()[i].match(line); match.hasMatch())
            return line.left(match.capturedStart()) + filledIn(QCoreApplication::translate("EngineWords", kShapes[i].wording), match);
    return line;
}

}  // namespace

QString inInterfaceLanguage(const QString& text) {
    QStringList lines = text.split('\n');
    for (QString& line : lines) line = lineInInterfaceLanguage(line);
    return lines.join('\n');
}

}  // namespace fusescope::gui
