#include "core/dtype.h"

#include <array>

namespace fusescope {

namespace {
struct DTypeInfo {
    std::string_view name;
    std::string_view scalarName;
    std::size_t size;
};
constexpr std::array<DTypeInfo, 9> kInfo = {{
    {"torch.bool", "Bool", 1},
    {"torch.int32", "Int", 4},
    {"torch.int64", "Long", 8},
    {"torch.float16", "Half", 2},
    {"torch.bfloat16", "BFloat16", 2},
    {"torch.float32", "Float", 4},
    {"torch.float64", "Double", 8},
    {"torch.complex64", "ComplexFloat", 8},
    {"torch.complex128", "ComplexDouble", 16},
}};
const DTypeInfo& info(DType t) { return kInfo[static_cast<std::size_t>(t)]; }
}  // namespace

std::string_view dtypeName(DType t) { return info(t).name; }
std::string_view dtypeScalarName(DType t) { return info(t).scalarName; }
std::size_t dtypeSize(DType t) { return info(t).size; }

std::optional<DType> dtypeFromName(std::string_view name) {
    if (name.starts_with("torch.")) name.remove_prefix(6);
    if (name == "float32" || name == "float") return DType::Float32;
    if (name == "float64" || name == "double") return DType::Float64;
    if (name == "float16" || name == "half") return DType::Float16;
    if (name == "bfloat16") return DType::BFloat16;
    if (name == "int64" || name == "long") return DType::Int64;
    if (name == "int32" || name == "int") return DType::Int32;
    if (name == "bool") return DType::Bool;
    if (name == "complex64" || name == "cfloat") return DType::Complex64;
    if (name == "complex128" || name == "cdouble") return DType::Complex128;
    return std::nullopt;
}

bool isFloating(DType t) {
    return t == DType::Float16 || t == DType::BFloat16 || t == DType::Float32 || t == DType::Float64;
}

bool isIntegral(DType t) { return t == DType::Int32 || t == DType::Int64; }

bool isComplex(DType t) { return t == DType::Complex64 || t == DType::Complex128; }

DType complexOf(DType floating) {
    if (isComplex(floating)) return floating;
    return floating == DType::Float64 ? DType::Complex128 : DType::Complex64;
}

DType complexValueType(DType complex) { return complex == DType::Complex128 ? DType::Float64 : DType::Float32; }

DType promoteTypes(DType a, DType b) {
    if (a == b) return a;
    if (isComplex(a) || isComplex(b)) {
        // The complex type whose value type holds both operands' values (integers fit any).
        auto valueType = [](DType t) { return isComplex(t) ? complexValueType(t) : isFloating(t) ? t : DType::Float32; };
        return complexOf(promoteTypes(valueType(a), valueType(b)));
    }
    bool fa = isFloating(a), fb = isFloating(b);
    if (fa && fb) {
        // Half and BFloat16 have no common 16-bit type: they meet at float32.
        if ((a == DType::Float16 && b == DType::BFloat16) || (a == DType::BFloat16 && b == DType::Float16))
            return DType::Float32;
        return static_cast<int>(a) > static_cast<int>(b) ? a : b;
    }
    if (fa) return a;
    if (fb) return b;
    // Bool < Int32 < Int64 in enum order.
    return static_cast<int>(a) > static_cast<int>(b) ? a : b;
}

DType defaultFloat() { return DType::Float32; }

std::string legacyTypeName(DType t) { return "torch." + std::string(dtypeScalarName(t)) + "Tensor"; }

}  // namespace fusescope
