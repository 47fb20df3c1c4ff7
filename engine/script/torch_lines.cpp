#include "script/torch_lines.h"

#include <algorithm>

namespace fusescope {

namespace {

uint64_t fnv1a(std::string_view qualname, std::string_view text) {
    uint64_t h = 0xcbf29ce484222325ull;
    auto mix = [&](unsigned char byte) { h = (h ^ byte) * 0x100000001b3ull; };
    for (char c : qualname) mix(static_cast<unsigned char>(c));
    mix('\n');
    for (char c : text) mix(static_cast<unsigned char>(c));
    return h;
}

}  // namespace

std::optional<TorchPlace> torchPlaceOf(std::string_view qualname, std::string_view text) {
    const uint64_t key = fnv1a(qualname, text);
    const auto& lines = torchLines();
    auto at = std::lower_bound(lines.begin(), lines.end(), key, [](const TorchLine& l, uint64_t k) { return l.key < k; });
    if (at == lines.end() || at->key != key) return std::nullopt;
    return TorchPlace{torchLineFiles()[at->file], static_cast<int>(at->line)};
}

}  // namespace fusescope
