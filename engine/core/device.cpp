#include "core/device.h"

#include <charconv>

namespace fusescope {

std::string Device::str() const {
    switch (kind) {
        case Kind::Cpu: return index >= 0 ? "cpu:" + std::to_string(index) : "cpu";
        case Kind::Cuda: return index >= 0 ? "cuda:" + std::to_string(index) : "cuda";
        case Kind::Meta: return "meta";
    }
    return "cpu";
}

std::optional<Device> Device::parse(std::string_view text) {
    std::string_view type = text;
    int index = -1;
    if (auto colon = text.find(':'); colon != std::string_view::npos) {
        type = text.substr(0, colon);
        std::string_view num = text.substr(colon + 1);
        if (num.empty()) return std::nullopt;
        auto [ptr, ec] = std::from_chars(num.data(), num.data() + num.size(), index);
        if (ec != std::errc() || ptr != num.data() + num.size() || index < 0) return std::nullopt;
    }
    if (type == "cpu") return Device{Kind::Cpu, index};
    if (type == "cuda") return Device{Kind::Cuda, index};
    if (type == "meta" && index < 0) return Device{Kind::Meta, -1};
    return std::nullopt;
}

}  // namespace fusescope
