#pragma once
// Where a tensor lives. Meta tensors carry sizes, strides and dtype but no data; tracing
// uses them to infer shapes without computing values.

#include <optional>
#include <string>
#include <string_view>

namespace fusescope {

struct Device {
    enum class Kind { Cpu, Cuda, Meta };
    Kind kind = Kind::Cpu;
    int index = -1;  // -1 = unspecified

    static Device cpu() { return {}; }
    static Device meta() { return {Kind::Meta, -1}; }
    bool isCpu() const { return kind == Kind::Cpu; }
    bool isMeta() const { return kind == Kind::Meta; }
    std::string str() const;  // "cpu", "cuda", "cuda:0", "meta"
    static std::optional<Device> parse(std::string_view text);
    bool operator==(const Device&) const = default;
};

}  // namespace fusescope
