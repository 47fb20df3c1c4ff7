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
};

using SymbolValues = std::map<std::string, IndexExpr>;

SymbolValues symbolValues(const std::vector<SymbolSource>& symbols, const std::vector<Tensor>& inputs);
int64_t evaluate(const IndexExpr& e, const SymbolValues& symbols);
Shape evaluate(const std::vector<IndexExpr>& values, const SymbolValues& symbols);

// The script line of the graph's first integer division or modulo (for ZeroDivisionError),
// or an unknown location when it has none.
SourceLocation integerDivisionSite(const LoweredGraph& graph);

// The graph's outputs: views of the computed buffers (by name) or of its inputs.
std::vector<Tensor> graphOutputs(const std::vector<OutputSpec>& outputs, const std::vector<InputBuffer>& inputBuffers,
                                 const std::map<std::string, Tensor>& buffers, const std::vector<Tensor>& inputs,
                                 const SymbolValues& symbols);

// Fills in the span of one call of a compiled graph (named by graphCallSpanName): its
// compile id and inputs. `r` is null when the profiler is off.
std::string graphCallSpanName(const GraphTraceName& name);
void describeGraphCall(TraceRecord* r, const GraphTraceName& name, const std::vector<Tensor>& inputs);

}  // namespace fusescope
