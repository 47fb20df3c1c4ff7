#pragma once
// Untrusted JSON (protocol requests, bundle events) is refused past a nesting depth:
// nlohmann's parser copes with any depth, but copying, printing and freeing a value recurse
// once per level, so a value nested 100,000 deep overflows the stack.

#include <string_view>

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

}  // namespace fusescope
