// Autocast's op policy (core/autocast.h) as PyTorch's CPU autocast applies it
// (aten/src/ATen/autocast_mode.cpp): before an op of the registry runs, its floating inputs
// on the autocast device (float64 excepted, as PyTorch leaves doubles alone) are cast with
// `to`: matrix products, convolutions and attention to the lower-precision dtype, the ops
// that need range to float32, and cat/stack to their widest floating input. The casts are
// ops themselves, so autograd and compiled graphs see them as PyTorch's do. The library's
// losses cast their inputs to float32 themselves (torch/nn/functional.py). Also the torch
// functions that read and set the state; torch.autocast itself is torch/amp.py.
#include <set>

#include <fmt/format.h>

#include "core/autocast.h"
#include "script/interpreter.h"
#include "script/trace_hooks.h"

namespace fusescope {

namespace {

enum class CastPolicy { LowerPrecision, Float32, Promote };

std::optional<CastPolicy> cpuPolicy(const std::string& op) {
    static const std::set<std::string, std::less<>> lower = {
        "conv1d", "conv2d", "conv3d", "bmm", "mm", "linalg_vecdot", "baddbmm", "addmm", "addbmm", "linear", "matmul",
        "conv_tbc", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "prelu", "scaled_dot_product_attention"};
    static const std::set<std::string, std::less<>> fp32 = {
        "avg_pool3d", "binary_cross_entropy", "grid_sampler", "polar", "prod", "quantile", "nanquantile", "stft", "cdist",
        "trace", "view_as_complex", "cholesky", "cholesky_inverse", "cholesky_solve", "inverse", "lu_solve", "orgqr",
        "ormqr", "pinverse", "max_pool3d", "max_unpool2d", "max_unpool3d", "adaptive_avg_pool3d", "reflection_pad1d",
        "reflection_pad2d", "replication_pad1d", "replication_pad2d", "replication_pad3d", "mse_loss",
        "cosine_embedding_loss", "nll_loss", "nll_loss2d", "hinge_embedding_loss", "poisson_nll_loss", "smooth_l1_loss",
        "cross_entropy_loss", "l1_loss", "huber_loss", "margin_ranking_loss", "soft_margin_loss", "triplet_margin_loss",
        "multi_margin_loss", "ctc_loss", "kl_div", "multilabel_margin_loss", "binary_cross_entropy_with_logits"};
    if (lower.count(op)) return CastPolicy::LowerPrecision;
    if (fp32.count(op) || op.rfind("fft_", 0) == 0 || op.rfind("linalg_", 0) == 0) return CastPolicy::Float32;
    if (op == "cat" || op == "stack" || op == "index_copy") return CastPolicy::Promote;
    return std::nullopt;
}

bool eligible(const Value& v) {
    if (!v.isTensor()) return false;
    const Tensor& t = v.asTensor();
    return isFloating(t.dtype()) && t.dtype() != DType::Float64 && autocastSetting(t.device().kind).enabled;
}

// Each eligible tensor among `values` (and inside lists and tuples of them) given to `visit`.
template <class Visit>
void forEachTensor(ValueList& values, Visit visit) {
    for (Value& v : values) {
        if (auto* list = v.as<ListObject>()) {
            ValueList items = list->items;  // a copy: the caller's list stays as it was
            forEachTensor(items, visit);
            v = makeList(std::move(items));
        } else if (auto* tuple = v.as<TupleObject>(); tuple && !v.as<SizeObject>()) {
            ValueList items = tuple->items;
            forEachTensor(items, visit);
            v = makeTuple(std::move(items));
        } else if (eligible(v)) {
            visit(v);
        }
    }
}

Device::Kind settingKind(Interpreter& in, const Value& deviceType) {
    const std::string type = deviceType.isString() ? deviceType.asString() : deviceType.isNone() ? "cuda" : "";
    if (type == "cpu") return Device::Kind::Cpu;
    if (type == "cuda") return Device::Kind::Cuda;
    in.fail("RuntimeError", fmt::format("User specified an unsupported autocast device_type '{}'", deviceType.isString() ? type : in.repr(deviceType)));
}

}  // namespace

void castForAutocast(Interpreter& in, const std::string& op, ValueList& args, std::vector<std::pair<std::string, Value>>& kwargs,
                     const CallSite& site) {
    const std::optional<CastPolicy> policy = cpuPolicy(op);
    if (!policy) return;
    ValueList kwargValues;
    for (auto& kv : kwargs) kwargValues.push_back(kv.second);
    std::optional<DType> target;
    if (*policy == CastPolicy::Promote) {
        forEachTensor(args, [&](Value& v) { target = target ? promoteTypes(*target, v.asTensor().dtype()) : v.asTensor().dtype(); });
    }
    auto cast = [&](Value& v) {
        const Tensor& t = v.asTensor();
        const DType to = *policy == CastPolicy::LowerPrecision ? autocastSetting(t.device().kind).dtype
                         : *policy == CastPolicy::Float32     ? DType::Float32
                                                              : *target;
        if (t.dtype() != to) v = in.callOp("to", CallStyle::Method, {v, Value(to)}, {}, site);
    };
    forEachTensor(args, cast);
    forEachTensor(kwargValues, cast);
    for (size_t i = 0; i < kwargs.size(); ++i) kwargs[i].second = kwargValues[i];
}

void populateAutocastFunctions(ModuleObject& torch) {
    torch.attrs["is_autocast_enabled"] = makeBuiltin("torch.is_autocast_enabled", [](Interpreter& in, CallArgs& a) {
        return Value(autocastSetting(settingKind(in, a.args.empty() ? Value() : a.args[0])).enabled);
    });
    torch.attrs["get_autocast_dtype"] = makeBuiltin("torch.get_autocast_dtype", [](Interpreter& in, CallArgs& a) {
        if (a.args.size() != 1) in.fail("TypeError", "get_autocast_dtype() takes the device type");
        return Value(autocastSetting(settingKind(in, a.args[0])).dtype);
    });
    // Entering and leaving an autocast region inside a compiled function: the graph keeps the
    // casts its ops made while tracing; the Python that sets the state must run on each call.
    torch.attrs["set_autocast_enabled"] = makeBuiltin("torch.set_autocast_enabled", [](Interpreter& in, CallArgs& a) {
        if (a.args.size() != 2) in.fail("TypeError", "set_autocast_enabled() takes the device type and a bool");
        const Device::Kind kind = settingKind(in, a.args[0]);
        const bool on = in.truthy(a.args[1]);
        if (on && kind == Device::Kind::Cuda)
            in.fail("NotImplementedError", "autocast on cuda tensors is not supported by Fusescope yet (autocast on the CPU is)");
        if (in.tracer()) in.tracer()->onUntracedEffect("it sets autocast");
        autocastSetting(kind).enabled = on;
        return Value();
    });
    torch.attrs["set_autocast_dtype"] = makeBuiltin("torch.set_autocast_dtype", [](Interpreter& in, CallArgs& a) {
        if (a.args.size() != 2 || !a.args[1].isDType()) in.fail("TypeError", "set_autocast_dtype() takes the device type and a dtype");
        const Device::Kind kind = settingKind(in, a.args[0]);
        if (in.tracer()) in.tracer()->onUntracedEffect("it sets autocast");
        autocastSetting(kind).dtype = a.args[1].asDType();
        return Value();
    });
}

}  // namespace fusescope
