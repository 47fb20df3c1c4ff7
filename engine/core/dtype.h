#pragma once
// Element types, named and promoted as PyTorch does.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace fusescope {

// Complex values are stored as (real, imag) pairs of their value type, as c10::complex is.
enum class DType { Bool, Int32, Int64, Float16, BFloat16, Float32, Float64, Complex64, Complex128 };

std::string_view dtypeName(DType t);        // "torch.float32"
std::string_view dtypeScalarName(DType t);  // c10 ScalarType name: "Float", "Half", "Long", ...
std::string legacyTypeName(DType t);        // a CPU tensor's legacy type in errors: "torch.FloatTensor"
std::optional<DType> dtypeFromName(std::string_view name);  // "float32", "float", "half", ...
std::size_t dtypeSize(DType t);
bool isFloating(DType t);
bool isIntegral(DType t);  // Int32, Int64 (not Bool)
bool isComplex(DType t);
// c10's toComplexType / toRealValueType: float32 <-> complex64, float64 <-> complex128
// (float16 and bfloat16 meet complex as complex64: Fusescope has no complex32).
DType complexOf(DType floating);
DType complexValueType(DType complex);
DType promoteTypes(DType a, DType b);  // torch.promote_types
DType defaultFloat();                  // torch.get_default_dtype(): float32

}  // namespace fusescope
