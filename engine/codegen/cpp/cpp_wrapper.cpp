// The module: prelude, kernels, and the wrapper `call` that allocates intermediate buffers,
// runs kernels and extern kernels in schedule order, and frees what it allocated.

#include <algorithm>

#include <fmt/format.h>

#include "codegen/cpp/cpp_codegen.h"
#include "core/error.h"
#include "lower/blas_layout.h"

namespace fusescope {

namespace {

int dtypeCode(DType t) { return t == DType::Float64 ? 1 : 0; }

// A BLAS operand: pointer expression, transpose flag and leading dimension of its view.
struct BlasOperand {
    std::string pointer;
    int transpose;
    std::string ld;
};

BlasOperand blasOperand(const ExternOperand& op, const std::string& batchOffset) {
    std::optional<BlasLayout> layout = blasLayout(op.view);  // lowering copied the operand if none
    if (!layout) throw Error("internal error: extern kernel operand " + op.buffer + " is not BLAS-readable");
    std::string pointer = fmt::format("{} + {}{}", op.buffer, op.view.offset.cstr(), batchOffset);
    return {pointer, layout->transpose ? 1 : 0, layout->leadingDim.cstr()};
}

// Whether an extern kernel calls fs_gemm once per batch entry (bmm) or once (mm).
bool isBatched(ExternKernelKind kernel) {
    switch (kernel) {
    case ExternKernelKind::Mm: return false;
    case ExternKernelKind::Bmm: return true;
    }
    return false;
}

std::string externCall(const Buffer& b) {
    const auto& size = b.layout.size;
    size_t n = size.size();
    std::string m = size[n - 2].cstr(), cols = size[n - 1].cstr();
    const ExternOperand& a = b.operands[0];
    const ExternOperand& w = b.operands[1];
    std::string k = a.view.size.back().cstr();
    std::string out;
    out += fmt::format("    // {}: extern_kernels.{} {}\n", b.name, externKernelName(b.externKernel), b.layout.str());
    bool batched = isBatched(b.externKernel);
    std::string pad = batched ? "        " : "    ";
    if (batched) out += fmt::format("    for (int64_t bi = 0; bi < {}; ++bi) {{\n", size[0].cstr());
    BlasOperand x = blasOperand(a, batched ? " + bi * " + a.view.stride[0].cstr() : "");
    BlasOperand y = blasOperand(w, batched ? " + bi * " + w.view.stride[0].cstr() : "");
    std::string c = batched ? fmt::format("{} + bi * {} * {}", b.name, m, cols) : b.name;
    out += fmt::format("{}fs_gemm({}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {});\n", pad, dtypeCode(b.layout.dtype), x.transpose,
                       y.transpose, m, cols, k, 1.0, x.pointer, x.ld, y.pointer, y.ld,
                       0.0, c, cols);
    if (batched) out += "    }\n";
    return out;
}

}  // namespace

RenderedModule generateCpp(const LoweredGraph& graph, const Schedule& schedule, const TestHooks& hooks) {
    RenderedModule gen;
    gen.language = "cpp";
    gen.outputBuffers = computedOutputBuffers(graph);

    // Kernels first (their text goes before the wrapper), wrapper calls kept until then.
    struct TracedChunk {
        std::string text;
        std::vector<std::string> buffers;  // what the call computes
    };
    std::vector<GroupKernel> kernels;
    std::vector<TracedChunk> calls;
    auto traced = [&](TracedCall call, const std::string& code, std::vector<std::string> computes) {
        std::string text = fmt::format("    fs_span = fs_trace_begin({}, {}{}{});\n", gen.tracedCalls.size(), call.buffers.size(),
                                       call.buffers.empty() ? "" : ", ", fmt::join(call.buffers, ", "));
        calls.push_back({text + code + "    fs_trace_end(fs_span);\n", std::move(computes)});
        gen.tracedCalls.push_back(std::move(call));
    };
    for (const auto& k : schedule.kernels) {
        if (k.node->kind == SchedulerNode::Kind::Extern) {
            const Buffer& b = *k.node->buffer;
            std::vector<std::string> buffers;
            for (const auto& op : b.operands) buffers.push_back(op.buffer);
            buffers.push_back(b.name);
            std::string kernel = fmt::format("extern_kernels.{}", externKernelName(b.externKernel));
            gen.bufferKernels[b.name] = kernel;
            traced({kernel, buffers}, externCall(b), {b.name});
            continue;
        }
        std::string name = fusedKernelName("cpp", k, gen.kernelNames.size());
        KernelCode kernel = cppKernel(k, name, graph);
        std::vector<std::string> args = kernel.buffers, computes;
        for (const auto& s : graph.symbols) args.push_back(s.name);
        for (const auto* n : k.nodes) {
            computes.push_back(n->name);
            gen.bufferKernels[n->name] = name;
        }
        traced({name, kernel.buffers}, fmt::format("    {}({});\n", name, fmt::join(args, ", ")), computes);
        gen.kernelNames.push_back(name);
        kernels.push_back({std::move(kernel), &k});
    }

    SourceBuilder out(gen.source, gen.bufferLines);
    out.addModuleStart(cppPrelude(), kernels);
    out.add("\nextern \"C\" int call(void* const* inputs, void* const* outputs, const int64_t* symbols) {\n");
    out.add("    fs_status = 0;\n    void* fs_span;\n");
    for (size_t i = 0; i < graph.symbols.size(); ++i) out.add(fmt::format("    int64_t {} = symbols[{}];\n", graph.symbols[i].name, i));
    for (const auto& in : graph.inputs) {
        std::string type = dtypeCType(in.layout.dtype);
        out.add(fmt::format("    const {}* {} = (const {}*)inputs[{}];\n", type, in.name, type, in.placeholder));
    }
    std::vector<std::pair<std::string, std::string>> allocated;  // buffer, bytes
    for (const auto& node : schedule.nodes) {
        const Buffer& b = *node->buffer;
        std::string type = dtypeCType(b.layout.dtype);
        auto output = std::find(gen.outputBuffers.begin(), gen.outputBuffers.end(), b.name);
        if (output != gen.outputBuffers.end()) {
            out.add(fmt::format("    {}* {} = ({}*)outputs[{}];\n", type, b.name, type, output - gen.outputBuffers.begin()), {b.name});
        } else {
            std::string bytes = fmt::format("{} * {}", b.layout.numel().cstr(), dtypeSize(b.layout.dtype));
            out.add(fmt::format("    {}* {} = ({}*)fs_alloc({});\n", type, b.name, type, bytes), {b.name});
            allocated.push_back({b.name, bytes});
        }
    }
    // So tests can check that a fault in generated code loses no reported event.
    if (hooks.crashInGeneratedCode) out.add("    *(volatile int*)0 = 0;  // test hook: crash-in-generated-code\n");
    for (const auto& call : calls) out.add(call.text, call.buffers);
    for (const auto& [name, bytes] : allocated) out.add(fmt::format("    fs_free({}, {});\n", name, bytes), {name});
    out.add("    return fs_status;\n}\n");
    return gen;
}

}  // namespace fusescope
