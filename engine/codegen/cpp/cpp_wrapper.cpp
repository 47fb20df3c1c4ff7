// The module: prelude, kernels, and the wrapper `call`: tables of buffers and steps (each a
// kernel or extern kernel on buffers by position) that a small loop runs in schedule
// order, taking each buffer before its first step and freeing it after its last. Data, not
// straight-line code, so a graph of thousands of ops compiles no slower per op than a small
// one; identical steps share one function.

#include <algorithm>
#include <string_view>
#include <unordered_map>

#include <fmt/format.h>

#include "codegen/common/kernel_reuse.h"
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

BlasOperand blasOperand(const ExternOperand& op) {
    std::optional<BlasLayout> layout = blasLayout(op.view);  // lowering copied the operand if none
    if (!layout) throw Error("internal error: extern kernel operand " + op.buffer + " is not BLAS-readable");
    std::string pointer = fmt::format("{} + {}", op.buffer, op.view.offset.cstr());
    return {pointer, layout->transpose ? 1 : 0, layout->leadingDim.cstr()};
}

// An extern kernel that takes its geometry as a table and `arity` operands (nullptr for an
// absent one, a convolution's bias): fs_convolution, fs_attention.
std::string tableCall(const Buffer& b, const char* function, size_t arity) {
    std::vector<std::string> args{std::to_string(dtypeCode(b.layout.dtype)), "geometry"};
    for (size_t i = 0; i < arity; ++i)
        args.push_back(i < b.operands.size() ? fmt::format("{} + {}", b.operands[i].buffer, b.operands[i].view.offset.cstr()) : "nullptr");
    args.push_back(b.name);
    std::string out = fmt::format("    // {}: extern_kernels.{} {}\n", b.name, externKernelName(b.externKernel), b.layout.str());
    out += fmt::format("    {{\n        static const int64_t geometry[] = {{{}}};\n", fmt::join(b.externArgs, ", "));
    out += fmt::format("        {}({});\n    }}\n", function, fmt::join(args, ", "));
    return out;
}

std::string externCall(const Buffer& b) {
    if (b.externKernel == ExternKernelKind::Convolution) return tableCall(b, "fs_convolution", 3);
    if (b.externKernel == ExternKernelKind::Attention) return tableCall(b, "fs_attention", 3);
    const auto& size = b.layout.size;
    size_t n = size.size();
    std::string m = size[n - 2].cstr(), cols = size[n - 1].cstr();
    const ExternOperand& a = b.operands[0];
    const ExternOperand& w = b.operands[1];
    std::string k = a.view.size.back().cstr();
    std::string out;
    out += fmt::format("    // {}: extern_kernels.{} {}\n", b.name, externKernelName(b.externKernel), b.layout.str());
    bool batched = b.externKernel == ExternKernelKind::Bmm;
    BlasOperand x = blasOperand(a), y = blasOperand(w);
    std::string batch = batched ? size[0].cstr() : "1";
    auto stride = [&](const ExternOperand& op) { return batched ? op.view.stride[0].cstr() : "0"; };
    std::string strideC = batched ? fmt::format("{} * {}", m, cols) : "0";
    out += fmt::format("    fs_parallel_gemm({}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {});\n", dtypeCode(b.layout.dtype),
                       x.transpose, y.transpose, batch, m, cols, k, x.pointer, x.ld, stride(a), y.pointer, y.ld, stride(w), b.name, cols,
                       strideC);
    return out;
}

// call(), generic over its tables: takes each buffer (allocated, or the caller's output)
// just before the first step that uses it, runs the steps in order (each inside a profiler
// span), and frees an intermediate buffer after its last step.
constexpr const char* kCallLoop = R"CALL(
extern "C" int call(void* const* inputs, void* const* outputs, const int64_t* symbols) {
    fs_status = 0;
    void** b = (void**)fs_alloc((FS_BUFFERS + 1) * sizeof(void*));
    for (int k = 0; k < FS_BUFFERS; ++k) b[k] = fs_buffers[k].input >= 0 ? (void*)inputs[fs_buffers[k].input] : 0;
    void* args[FS_MAX_ARGS];
    for (int i = 0; i < FS_STEPS; ++i) {
        const FsStep& step = fs_steps[i];
        for (int a = 0; a < step.n; ++a) {
            int k = step.buffers[a];
            if (!b[k]) b[k] = fs_buffers[k].output >= 0 ? outputs[fs_buffers[k].output] : fs_alloc(fs_bytes(k, symbols));
            args[a] = b[k];
        }
        void* span = fs_trace_begin(i, step.n, args);
        step.run(args, symbols);
        fs_trace_end(span);
        for (int a = 0; a < step.n; ++a) {
            int k = step.buffers[a];
            if (fs_buffers[k].lastStep == i && fs_buffers[k].input < 0 && fs_buffers[k].output < 0 && b[k]) {
                fs_free(b[k], fs_bytes(k, symbols));
                b[k] = 0;
            }
        }
    }
    fs_free(b, (FS_BUFFERS + 1) * sizeof(void*));
    return fs_status;
}
)CALL";

// One step of call(): what it runs, on which buffers, and what it computes.
struct Step {
    std::string name;  // the kernel (cpp_fused_add_0) or extern kernel (extern_kernels.mm)
    std::string call;  // the statements, over the buffers' names
    std::vector<std::string> buffers, computes;
};

// The size symbols as locals of a generated function taking them as `s`.
std::string symbolLocals(const LoweredGraph& graph) {
    std::string code;
    for (size_t i = 0; i < graph.symbols.size(); ++i) code += fmt::format("    const int64_t {} = s[{}];\n", graph.symbols[i].name, i);
    return code;
}

// The step's statements as a function of its buffers by position (b) and the size
// symbols (s); `name` is the function's.
KernelCode stepFunction(const Step& step, const std::string& name, const LoweredGraph& graph) {
    KernelCode f;
    f.buffers = step.buffers;
    std::string code = fmt::format("static void {}(void* const* b, const int64_t* s) {{\n", name) + symbolLocals(graph);
    for (size_t i = 0; i < step.buffers.size(); ++i) {
        const std::string& b = step.buffers[i];
        bool input = !graph.findBuffer(b);
        std::string type = fmt::format("{}{}*", input ? "const " : "", dtypeCType(graph.layoutOf(b).dtype));
        code += fmt::format("    {} {} = ({})b[{}];\n", type, b, type, i);
    }
    f.add(code + step.call + "}\n", KernelCode::kAllMembers);
    return f;
}

// call()'s buffers by index: the graph's inputs, then the computed buffers; each one's
// last step.
struct BufferTable {
    std::vector<std::string> names;
    std::unordered_map<std::string_view, int> index;
    std::vector<int> lastStep;
};

BufferTable bufferTable(const LoweredGraph& graph, const Schedule& schedule, const std::vector<Step>& steps) {
    BufferTable t;
    for (const auto& in : graph.inputs) t.names.push_back(in.name);
    for (const auto& node : schedule.nodes) t.names.push_back(node->name);
    for (size_t k = 0; k < t.names.size(); ++k) t.index[t.names[k]] = static_cast<int>(k);
    t.lastStep.assign(t.names.size(), -1);
    for (size_t i = 0; i < steps.size(); ++i)
        for (const auto& b : steps[i].buffers) t.lastStep[t.index.at(b)] = static_cast<int>(i);
    return t;
}

// The step functions, one per distinct shape, each tagged with what its steps compute;
// returns each step's function.
std::vector<std::string> writeStepFunctions(SourceBuilder& out, const std::vector<Step>& steps, const LoweredGraph& graph) {
    struct StepFunction {
        KernelCode code;
        std::vector<std::string> computes;
    };
    std::vector<StepFunction> functions;
    std::unordered_map<std::string, size_t> functionByShape;
    std::vector<std::string> functionOf;
    for (const Step& step : steps) {
        std::string name = fmt::format("fs_step_{}", functions.size());
        KernelCode f = stepFunction(step, name, graph);
        auto [it, first] = functionByShape.try_emplace(kernelShape(f, name), functions.size());
        if (first) functions.push_back({std::move(f), {}});
        else name = fmt::format("fs_step_{}", it->second);
        auto& computes = functions[it->second].computes;
        computes.insert(computes.end(), step.computes.begin(), step.computes.end());
        functionOf.push_back(name);
    }
    out.add("\n// The steps of call(), each a function of its buffers by position (b) and the size symbols (s).\n");
    for (const auto& f : functions) out.add(f.code.code, f.computes);
    return functionOf;
}

// fs_buffers (one row per buffer, tagged with it) and fs_bytes, which evaluates the sizes
// that depend on size symbols.
void writeBufferTable(SourceBuilder& out, const BufferTable& buffers, const LoweredGraph& graph,
                      const std::vector<std::string>& outputBuffers, const std::vector<Step>& steps) {
    size_t maxArgs = 1;
    for (const Step& step : steps) maxArgs = std::max(maxArgs, step.buffers.size());
    out.add(fmt::format("\n// call()'s buffers: the graph's inputs, then the computed buffers.\n"
                        "#define FS_BUFFERS {}\n#define FS_STEPS {}\n#define FS_MAX_ARGS {}\n"
                        "struct FsBuffer {{ int input, output, lastStep; int64_t bytes; }};  // input/output: its slot, or -1\n"
                        "static const FsBuffer fs_buffers[FS_BUFFERS + 1] = {{\n",
                        buffers.names.size(), steps.size(), maxArgs));
    std::unordered_map<std::string_view, size_t> outputIndex;
    for (size_t i = 0; i < outputBuffers.size(); ++i) outputIndex[outputBuffers[i]] = i;
    std::string symbolicBytes;
    for (size_t k = 0; k < buffers.names.size(); ++k) {
        const std::string& name = buffers.names[k];
        if (k < graph.inputs.size()) {
            out.add(fmt::format("    {{{}, -1, -1, 0}},  // {}\n", graph.inputs[k].placeholder, name), {name});
            continue;
        }
        const FixedLayout& layout = graph.findBuffer(name)->layout;
        IndexExpr bytes = layout.numel() * IndexExpr(static_cast<int64_t>(dtypeSize(layout.dtype)));
        auto constant = bytes.constant();
        if (!constant) symbolicBytes += fmt::format("    case {}: return {};\n", k, bytes.cstr());
        auto output = outputIndex.find(name);
        out.add(fmt::format("    {{-1, {}, {}, {}}},  // {}: {} bytes\n", output == outputIndex.end() ? -1 : static_cast<int>(output->second),
                            buffers.lastStep[k], constant ? *constant : -1, name, bytes.str()),
                {name});
    }
    out.add("    {-1, -1, -1, 0},  // (end)\n};\n");
    out.add(fmt::format("static int64_t fs_bytes(int k, const int64_t* s) {{\n{}    switch (k) {{\n{}    default: return fs_buffers[k].bytes;\n    }}\n}}\n",
                        symbolicBytes.empty() ? "" : symbolLocals(graph), symbolicBytes));
}

// fs_steps: each step's function and its buffers by index, tagged with what it computes.
void writeStepTable(SourceBuilder& out, const std::vector<Step>& steps, const std::vector<std::string>& functions,
                    const BufferTable& buffers) {
    out.add("\n// call()'s steps in order: the step function and its buffers, by index into fs_buffers.\n"
            "struct FsStep { void (*run)(void* const*, const int64_t*); int n; int buffers[FS_MAX_ARGS]; };\n"
            "static const FsStep fs_steps[FS_STEPS + 1] = {\n");
    for (size_t i = 0; i < steps.size(); ++i) {
        std::vector<int> indices;
        for (const auto& b : steps[i].buffers) indices.push_back(buffers.index.at(b));
        out.add(fmt::format("    {{{}, {}, {{{}}}}},  // {}({})\n", functions[i], indices.size(), fmt::join(indices, ", "),
                            steps[i].name, fmt::join(steps[i].buffers, ", ")),
                steps[i].computes);
    }
    out.add("    {0, 0, {0}},  // (end)\n};\n");
}

}  // namespace

RenderedModule generateCpp(const LoweredGraph& graph, const Schedule& schedule, const TestHooks& hooks) {
    RenderedModule gen;
    gen.language = "cpp";
    gen.outputBuffers = computedOutputBuffers(graph);

    std::vector<GroupKernel> kernels;
    KernelReuse reuse;
    std::vector<Step> steps;
    for (const auto& k : schedule.kernels) {
        if (k.node->kind == SchedulerNode::Kind::Extern) {
            const Buffer& b = *k.node->buffer;
            Step step{fmt::format("extern_kernels.{}", externKernelName(b.externKernel)), externCall(b), {}, {b.name}};
            for (const auto& op : b.operands)  // each buffer once: mm(x, x) takes x once
                if (std::find(step.buffers.begin(), step.buffers.end(), op.buffer) == step.buffers.end()) step.buffers.push_back(op.buffer);
            step.buffers.push_back(b.name);
            gen.bufferKernels[b.name] = step.name;
            steps.push_back(std::move(step));
            continue;
        }
        std::string fresh = fusedKernelName("cpp", k, gen.kernelNames.size());
        KernelCode kernel = cppKernel(k, fresh, graph, schedule.storedIntoInputs);
        Step step{"", "", kernel.buffers, {}};
        std::vector<std::string> args = kernel.buffers;
        for (const auto& s : graph.symbols) args.push_back(s.name);
        step.name = reuse.add(kernels, std::move(kernel), k, fresh);
        if (step.name == fresh) gen.kernelNames.push_back(step.name);
        step.call = fmt::format("    {}({});\n", step.name, fmt::join(args, ", "));
        for (const auto* n : k.nodes) {
            step.computes.push_back(n->name);
            gen.bufferKernels[n->name] = step.name;
        }
        steps.push_back(std::move(step));
    }

    BufferTable buffers = bufferTable(graph, schedule, steps);
    for (const Step& step : steps) gen.tracedCalls.push_back({step.name, step.buffers, step.computes});
    SourceBuilder out(gen.source, gen.bufferLines);
    out.addModuleStart(cppPrelude(), kernels);
    std::vector<std::string> functions = writeStepFunctions(out, steps, graph);
    writeBufferTable(out, buffers, graph, gen.outputBuffers, steps);
    writeStepTable(out, steps, functions, buffers);
    // So tests can check that a fault in generated code loses no reported event, and that a
    // kernel that never returns is still ended (run --timeout).
    std::string loop = kCallLoop;
    if (hooks.crashInGeneratedCode)
        loop.replace(loop.find("    fs_status = 0;\n"), 0, "    *(volatile int*)0 = 0;  // test hook: crash-in-generated-code\n");
    if (hooks.hangInGeneratedCode)
        loop.replace(loop.find("    fs_status = 0;\n"), 0, "    for (volatile int spin = 1; spin;) {}  // test hook: hang-in-generated-code\n");
    out.add(loop);
    return gen;
}

}  // namespace fusescope
