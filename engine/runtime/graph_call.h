#pragma once
// What every device's graph runner does around its kernels: reads the size symbols off the
// inputs, evaluates sizes, and returns the graph's outputs as views onto its output
// buffers or inputs.

#include <map>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/tensor.h"
#include "lower/ir.h"
#include "profile/trace_record.h"

namespace fusescope {

// Names a compiled graph in the trace.
struct GraphTraceName {
    std::string compileId;  // 0/1
    std::string graphName;  // __compiled_fn_0
    bool eagerOp = false;   // an eager op's kernels: launched within the op's span, not a graph call's
};

using SymbolValues = std::map<std::string, IndexExpr>;

SymbolValues symbolValues(const std::vector<SymbolSource>& symbols, const std::vector<Tensor>& inputs);
int64_t evaluate(const IndexExpr& e, const SymbolValues& symbols);
Shape evaluate(const std::vector<IndexExpr>& values, const SymbolValues& symbols);

// What generated code reports through fs_status: 1, an integer division by zero; 2, an
// index read from a tensor outside its table. Each error names the script line of the
// graph's first op that can raise it.
struct GraphStatusSites {
    SourceLocation division;  // unknown when the graph has no integer division or modulo
    SourceLocation index;     // unknown when it reads no index from a tensor
    std::string indexOp;      // the op reading it there: embedding, index_select or gather
    bool any() const { return division.known() || index.known(); }
    [[noreturn]] void raise(int status) const;
};
GraphStatusSites graphStatusSites(const LoweredGraph& graph);

// The graph's outputs: views of the computed buffers (by name) or of its inputs; a buffer
// computed in an input's storage (`writtenInto`: buffer -> that input) is a view of the input.
std::vector<Tensor> graphOutputs(const std::vector<OutputSpec>& outputs, const std::vector<InputBuffer>& inputBuffers,
                                 const std::map<std::string, Tensor>& buffers, const std::vector<Tensor>& inputs,
                                 const SymbolValues& symbols, const std::map<std::string, Tensor>& writtenInto = {});

// Fills in the span of one call of a compiled graph (named by graphCallSpanName): its
// compile id and inputs. `r` is null when the profiler is off.
std::string graphCallSpanName(const GraphTraceName& name);
void describeGraphCall(TraceRecord* r, const GraphTraceName& name, const std::vector<Tensor>& inputs);

}  // namespace fusescope
