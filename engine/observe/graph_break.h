#pragma once
// A graph break in PyTorch 2.15's words: its registry type (gb_type, which names the GB id
// and documentation page), explanation, hints and developer context, as Dynamo formats them
// in the graph_breaks log and explain(). script/graph_break_kinds.h makes each kind Fusescope
// breaks on, worded as PyTorch 2.15 words the same code (docs/graph-breaks.md).

#include <memory>
#include <string>
#include <vector>

namespace fusescope {

struct GraphBreak {
    std::string gbType;       // "Failed to trace builtin operator"
    std::string explanation;  // may span lines
    std::vector<std::string> hints;
    std::string context;      // "Developer debug context": what Dynamo saw
    // The instruction Dynamo was tracing when it broke ("CALL: a function call, e.g. f(x, y)"),
    // said before the message; empty where Dynamo says none (a data-dependent branch).
    std::string instruction;
    // Dynamo could not resume after this break (an escaping exception, a data-dependent
    // scalar): it logs "Failed to handle graph break gracefully..." before the message.
    bool ungraceful = false;
    // explain()'s "Reason:" where Dynamo gives another text than the message
    // (a data-dependent branch: "generic_jump TensorVariable()"); empty: the message.
    std::string explainReason;
    // Another break Dynamo made while handling this one (a break in a loop: "graph break in
    // loop", which skips the frame); null when none.
    std::shared_ptr<const GraphBreak> thenBroke;
    // What Dynamo warns of where it makes this break, once per process, the traced frames
    // after it (Tensor.item()'s advice); empty: nothing.
    std::string warning;

    std::string gbId() const;  // "GB0059" from the registry; empty for a break PyTorch does not make
    std::string link() const;  // the GB id's documentation page, or empty
    // Dynamo's format_graph_break_message: gb_type, explanation, hints, context and link.
    std::string message() const;
    std::string reason() const;  // the graph_breaks log's text after "Graph Break Reason: "
    std::string explainText() const;
    // The gb_type Dynamo keys its "duplicate graph break" check with: the last break's.
    const std::string& loggedType() const { return thenBroke ? thenBroke->gbType : gbType; }
};

}  // namespace fusescope
