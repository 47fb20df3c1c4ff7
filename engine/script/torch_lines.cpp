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

// As make-torch-lines cuts.
std::string_view codeOf(std::string_view line) {
    char quote = 0;
    for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quote) {
            if (c == quote) quote = 0;
        } else if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '#') {
            line = line.substr(0, i);
            break;
        }
    }
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
    return line;
}

std::optional<TorchPlace> torchPlaceOf(std::string_view qualname, std::string_view text, int occurrence, int occurrences) {
    // A generator expression's or lambda's lines are its function's (the table has functions only).
    for (std::string_view nested : {".<locals>.<genexpr>", ".<locals>.<lambda>"})
        if (qualname.ends_with(nested)) qualname.remove_suffix(nested.size());
    const std::string_view code = codeOf(text);
    const uint64_t key = fnv1a(qualname, code);
    const auto& lines = torchLines();
    auto first = std::lower_bound(lines.begin(), lines.end(), key, [](const TorchLine& l, uint64_t k) { return l.key < k; });
    auto end = std::upper_bound(first, lines.end(), key, [](uint64_t k, const TorchLine& l) { return k < l.key; });
    if (first == end) return std::nullopt;
    auto at = end - first == occurrences ? first + occurrence : end - 1;
    return TorchPlace{torchLineFiles()[at->file], static_cast<int>(at->line), *at->shown ? std::string(at->shown) : std::string(code)};
}

}  // namespace fusescope
