#pragma once
// Untrusted JSON (protocol requests, bundle events, TORCH_TRACE records and payloads,
// Chrome and execution traces) is refused past a nesting depth:
// nlohmann's parser copes with any depth, but copying, printing and freeing a value recurse
// once per level, so a value nested 100,000 deep overflows the stack.

#include <string_view>

#include <nlohmann/json.hpp>

namespace fusescope {

inline constexpr int kMaxJsonNesting = 512;

// Whether text nests arrays and objects deeper than `limit` (brackets inside strings do not
// count). Malformed text is the parser's to refuse.
inline bool jsonNestsDeeperThan(std::string_view text, int limit = kMaxJsonNesting) {
    int depth = 0;
    bool inString = false;
    for (size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (inString) {
            if (c == '\\') ++i;
            else if (c == '"') inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > limit) return true;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return false;
}

// Untrusted JSON text parsed: a discarded value when it is malformed or nests too deep.
inline nlohmann::json parseUntrustedJson(std::string_view text) {
    if (jsonNestsDeeperThan(text)) return nlohmann::json(nlohmann::json::value_t::discarded);
    return nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
}

}  // namespace fusescope
