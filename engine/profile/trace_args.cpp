#include "profile/trace_args.h"

#include <cmath>

#include "profile/profiler.h"

namespace fusescope {

namespace {

// PyTorch's ET spells element types by their C++ names.
std::string elementTypeName(DType t) {
    switch (t) {
        case DType::Float32: return "float";
        case DType::Float64: return "double";
        case DType::Complex64: return "c10::complex<float>";
        case DType::Complex128: return "c10::complex<double>";
        case DType::Float16: return "c10::Half";
        case DType::BFloat16: return "c10::BFloat16";
        case DType::Int64: return "long int";
        case DType::Int32: return "int";
        case DType::Bool: return "bool";
    }
    return "unknown";
}

struct Entry {
    nlohmann::json value, shape, stride;
    std::string type;
};

// JSON has no inf/nan: they are written as strings, as Python's json would print them.
nlohmann::json doubleValue(double d) {
    if (std::isnan(d)) return "nan";
    if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
    return d;
}

Entry entryOf(const IValue& v) {
    if (v.isTensor()) {
        const Tensor& t = v.toTensor();
        if (!t.defined()) return {nullptr, nlohmann::json::array(), nlohmann::json::array(), "Tensor"};
        const void* storage = t.storage() ? static_cast<const void*>(t.storage().get()) : t.impl();
        nlohmann::json value = {traceObjectId(t.impl()), traceObjectId(storage), t.storageOffset(), t.numel(),
                                static_cast<int64_t>(dtypeSize(t.dtype())), t.device().str()};
        return {value, t.sizes(), t.strides(), "Tensor(" + elementTypeName(t.dtype()) + ")"};
    }
    if (v.isSequence()) {
        Entry out{nlohmann::json::array(), nlohmann::json::array(), nlohmann::json::array(), "GenericList["};
        bool first = true;
        for (const IValue& item : v.toSequence()->items) {
            Entry e = entryOf(item);
            out.value.push_back(e.value);
            out.shape.push_back(e.shape);
            out.stride.push_back(e.stride);
            out.type += (first ? "" : ",") + e.type;
            first = false;
        }
        out.type += "]";
        return out;
    }
    auto scalar = [](nlohmann::json value, const char* type) {
        return Entry{std::move(value), nlohmann::json::array(), nlohmann::json::array(), type};
    };
    if (v.isBool()) return scalar(v.toBool(), "Bool");
    if (v.isInt()) return scalar(v.toInt(), "Int");
    if (v.isDouble()) return scalar(doubleValue(v.toDouble()), "Double");
    if (v.isString()) return scalar(v.toString(), "String");
    if (v.isDType()) return scalar(std::string(dtypeScalarName(v.toDType())), "ScalarType");
    if (v.isDevice()) return scalar(v.toDevice().str(), "Device");
    return scalar("<None>", "None");  // as PyTorch writes it
}

void append(TraceArgs& args, Entry e) {
    args.values.push_back(std::move(e.value));
    args.shapes.push_back(std::move(e.shape));
    args.strides.push_back(std::move(e.stride));
    args.types.push_back(std::move(e.type));
}

}  // namespace

int64_t traceObjectId(const void* object) {
    auto& ids = ThreadCurrent<ProfilerContext>::get().objectIds;
    return ids.try_emplace(object, static_cast<int64_t>(ids.size()) + 1).first->second;
}

void appendTraceArg(TraceArgs& args, const IValue& value) { append(args, entryOf(value)); }

TraceArgs traceArgsOf(const IValueList& values) {
    TraceArgs args;
    for (const IValue& v : values) appendTraceArg(args, v);
    return args;
}

TraceArgs traceArgsOf(const IValue& value) {
    if (value.isSequence() && value.toSequence()->isTuple) return traceArgsOf(value.toSequence()->items);
    TraceArgs args;
    if (!value.isNone()) appendTraceArg(args, value);
    return args;
}

void appendTraceBuffer(TraceArgs& args, const void* data, const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides,
                       DType dtype) {
    int64_t id = traceObjectId(data), numel = 1;
    for (int64_t s : sizes) numel *= s;
    append(args, Entry{{id, id, 0, numel, static_cast<int64_t>(dtypeSize(dtype)), "cpu"}, sizes, strides,
                       "Tensor(" + elementTypeName(dtype) + ")"});
}

}  // namespace fusescope
