#pragma once
// Helpers shared by the op test files: calling ops by name, building small tensors, and
// comparing values and meta inference.

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "core/error.h"
#include "dispatch/dispatcher.h"
#include "ops/op_registry.h"

namespace fusescope::test {

inline IValue call(std::string_view name, IValueList args, Kwargs kwargs = {}) { return dispatch(name, args, kwargs); }
inline Tensor T(std::string_view name, IValueList args, Kwargs kwargs = {}) { return call(name, std::move(args), std::move(kwargs)).toTensor(); }
inline Tensor floats(std::vector<double> v, Shape shape = {}, DType dtype = DType::Float32) {
    IValueList items;
    for (double d : v) items.emplace_back(d);
    Tensor t = T("tensor", {IValue::list(items)}, {{"dtype", IValue(dtype)}});
    return shape.empty() ? t : T("reshape", {t, IValue::intList(shape)});
}
inline Tensor longs(std::vector<int64_t> v, DType dtype = DType::Int64) { return T("tensor", {IValue::intList(v)}, {{"dtype", IValue(dtype)}}); }
inline std::vector<double> values(const Tensor& t) {
    std::vector<double> out;
    for (int64_t i = 0; i < t.numel(); ++i) out.push_back(t.readDouble(i));
    return out;
}
inline void expectNear(const Tensor& t, std::vector<double> expected, double tol = 1e-6) {
    auto v = values(t);
    ASSERT_EQ(v.size(), expected.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (std::isnan(expected[i])) EXPECT_TRUE(std::isnan(v[i])) << i;
        else EXPECT_NEAR(v[i], expected[i], tol) << "index " << i;
    }
}
inline std::string errorOf(const std::function<void()>& fn) {
    try {
        fn();
    } catch (const ScriptError& e) {
        return e.what();
    }
    return "no error";
}
inline Tensor toMeta(const Tensor& t) { return T("to", {t, IValue("meta")}); }
// Meta inference must give what the kernel gives.
inline void expectInferMatches(std::string_view op, IValueList args, IValueList metaArgs, Kwargs kw = {}) {
    Tensor real = T(op, args, kw);
    Tensor meta = T(op, metaArgs, kw);
    EXPECT_TRUE(meta.isMeta());
    EXPECT_EQ(real.sizes(), meta.sizes()) << op;
    EXPECT_EQ(real.strides(), meta.strides()) << op;
    EXPECT_EQ(real.dtype(), meta.dtype()) << op;
}

}  // namespace fusescope::test
