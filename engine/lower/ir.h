#pragma once
// The loop IR a graph lowers to: input buffers (the graph's placeholders, arg0_1, ...),
// computed buffers (a Pointwise or Reduction loop body writing one buffer), and extern
// kernels (mm / bmm through BLAS). Every buffer remembers the graph nodes it
// computes (provenance).

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/device.h"
#include "graph/graph.h"
#include "lower/loop_body.h"

namespace fusescope {

struct FixedLayout {
    Device device = Device::cpu();
    DType dtype = DType::Float32;
    std::vector<IndexExpr> size;
    std::vector<IndexExpr> stride;
    IndexExpr offset;
    // FixedLayout('cpu', torch.float32, size=[16, 16], stride=[16, 1])
    std::string str() const;
    IndexExpr numel() const { return product(size); }
    // Linear position of element `index` (one expression per dim) in the storage.
    IndexExpr indexOf(const std::vector<IndexExpr>& index) const;
    bool isContiguous() const;
};

struct InputBuffer {
    std::string name;  // arg0_1
    int placeholder = 0;
    FixedLayout layout;
    const Node* node = nullptr;
};

// The operand of an extern kernel: a buffer seen through a strided 2-D or 3-D view.
struct ExternOperand {
    std::string buffer;
    FixedLayout view;  // sizes/strides/offset within the buffer's storage
};

struct Buffer {
    enum class Kind { Computed, Extern };
    Kind kind = Kind::Computed;
    std::string name;  // buf0
    FixedLayout layout;
    std::vector<const Node*> origins;  // graph nodes whose work this buffer does
    std::string realizedBecause;       // why it is a buffer: "a reduction", "a graph output", a limit

    // Computed: the loop nest (pointwise dims, then reduction dims) and its body.
    std::vector<IndexExpr> ranges;
    std::vector<IndexExpr> reductionRanges;
    std::optional<ReductionKind> reductionKind;  // none for pointwise
    LoopBody body;                              // simplified (z0, z1, ...)

    // Extern: the kernel, its operands (a, b; a convolution's input, weight and bias) and
    // its constant arguments (a convolution's geometry: ops/convolution_kernel.h).
    ExternKernelKind externKernel = ExternKernelKind::Mm;
    std::vector<ExternOperand> operands;
    std::vector<int64_t> externArgs;

    bool isReduction() const { return reductionKind.has_value(); }
};

// How the compiled function produces one graph output: a view onto a computed buffer's
// storage or onto an input's.
struct OutputSpec {
    std::string buffer;  // computed buffer or input buffer name
    FixedLayout view;
};

// Where the value of each size symbol is read at call time: input `placeholder`'s dim.
struct SymbolSource {
    std::string name;  // s0
    int placeholder = 0;
    int dim = 0;
    bool stride = false;  // the input's stride at `dim`, not its size
};

struct LoweredGraph {
    std::vector<InputBuffer> inputs;
    std::vector<Buffer> buffers;
    std::vector<OutputSpec> outputs;
    std::vector<SymbolSource> symbols;

    // Labels every layout with the device the graph runs on (lowering assumes the CPU).
    void setDevice(const Device& device);
    void addBuffer(Buffer buffer);
    const Buffer* findBuffer(const std::string& name) const;  // constant time
    // The layout of an input or computed buffer.
    const FixedLayout& layoutOf(const std::string& name) const;

private:
    std::unordered_map<std::string, size_t> bufferIndex_;  // name -> position in `buffers`
};

}  // namespace fusescope
