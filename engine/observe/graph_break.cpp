#include "observe/graph_break.h"

#include "observe/graph_break_registry.h"

namespace fusescope {
namespace {

// textwrap.indent(text, "    ").lstrip(): lines after the first indented by four spaces,
// except those holding only whitespace.
std::string indentContinuations(const std::string& text) {
    std::string out;
    size_t start = 0;
    while (true) {
        size_t end = text.find('\n', start);
        std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (start > 0 && line.find_first_not_of(" \t\r") != std::string::npos) out += "    ";
        out += line;
        if (end == std::string::npos) return out;
        out += '\n';
        start = end + 1;
    }
}

}  // namespace

std::string GraphBreak::gbId() const {
    const GraphBreakRegistryEntry* entry = graph_break_registry::byType(gbType);
    return entry ? entry->gbId : "";
}

std::string GraphBreak::link() const { return graph_break_registry::documentationLink(gbId()); }

std::string GraphBreak::message() const {
    std::string out = gbType + "\n  Explanation: " + indentContinuations(explanation) + "\n";
    for (size_t i = 0; i < hints.size(); ++i) out += (i ? "\n  Hint: " : "  Hint: ") + indentContinuations(hints[i]);
    out += "\n\n  Developer debug context: " + indentContinuations(context);
    if (std::string url = link(); !url.empty()) out += "\n\n For more details about this graph break, please visit: " + url;
    return out;
}

std::string GraphBreak::reason() const {
    if (thenBroke)
        return "Failed to handle graph break gracefully. Skipping the function and falling back to eager. "
               "Graph break encountered:\n\n" + message() +
               "\n\n*** While handling this graph break, another graph break occurred: ***\n\n" + thenBroke->message();
    if (ungraceful)
        return "Failed to handle graph break gracefully. Skipping the function and falling back to eager. "
               "Graph break encountered:\n\n" + message();
    if (!instruction.empty()) return "Encountered graph break when attempting to trace " + instruction + ":\n\n" + message();
    return message();
}

std::string GraphBreak::explainText() const { return explainReason.empty() ? message() : explainReason; }

}  // namespace fusescope
