// Line ranges reach the code panes from events, which may come from a bundle made elsewhere:
// tints and highlights mark only the document's lines, whatever numbers the ranges hold.
#include <climits>

#include <QTest>

#include "model/compile_provenance.h"
#include "observe/event_from_json.h"
#include "views/code_view.h"

using namespace fusescope;
using namespace fusescope::gui;

class CodeViewTest : public QObject {
    Q_OBJECT
private slots:
    void rangesPastTheDocumentAreClampedToIt() {
        CodeView view(CodeView::Language::Cpp);
        view.showText("a\nb\nc\n");
        // Before the clamp this loop ran to INT_MAX: the window hung.
        view.tintLines({{{1, INT_MAX - 1}}, {{-5, 2}}, {{INT_MIN, INT_MAX}}});
        view.highlightLines({{2, INT_MAX}, {-10, 0}, {INT_MAX, INT_MAX}});
        QCOMPARE(view.highlightedLines(), (QList<int>{2, 3, 4}));
    }

    void aKernelSourcesLineNumbersStayWithinInt() {
        CompileProvenance provenance;
        std::optional<Event> kernel = eventFromJson(nlohmann::json::parse(R"({"type": "kernel_source", "buffer_lines":
            {"buf0": [[1, 2147483646], [9223372036854775000, 9223372036854775807], [-9223372036854775807, 3]]}})"));
        provenance.addKernelSource(std::get<KernelSourceEvent>(*kernel), 100);
        QCOMPARE(provenance.cppLines("buf0"), (LineRanges{{101, INT_MAX}, {INT_MAX, INT_MAX}, {INT_MIN + 100, 103}}));
    }
};

QTEST_MAIN(CodeViewTest)
#include "code_view_test.moc"
