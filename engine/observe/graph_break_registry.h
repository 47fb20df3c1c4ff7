#pragma once
// PyTorch's graph-break registry: every graph-break type Dynamo can report, with its GB id,
// the explanation and hints as its source writes them, and the documentation page. Read
// from engine/observe/data/graph_break_registry.json, which scripts/make-graph-break-registry
// generates from a PyTorch wheel (its version is `torchVersion()`). As in PyTorch, a break's
// gb_type names its entry and so its link.

#include <string>
#include <vector>

namespace fusescope {

struct GraphBreakRegistryEntry {
    std::string gbId;         // "GB0059"
    std::string gbType;       // "Failed to trace builtin operator"
    std::string context;      // templates, as in Dynamo's source: "builtin {fn.__name__} ..."
    std::string explanation;
    std::vector<std::string> hints;
};

namespace graph_break_registry {

const std::vector<GraphBreakRegistryEntry>& entries();  // in GB id order; an id may have several
const std::string& torchVersion();                      // the wheel it came from: "2.15.0+cu132"
// The entry Dynamo links a gb_type to (its last, as PyTorch's map keeps it), or null.
const GraphBreakRegistryEntry* byType(const std::string& gbType);
const GraphBreakRegistryEntry* byId(const std::string& gbId);  // its first variant, or null
// "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0059.html"
std::string documentationLink(const std::string& gbId);

}  // namespace graph_break_registry
}  // namespace fusescope
