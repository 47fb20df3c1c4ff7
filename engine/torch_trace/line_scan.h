#pragma once
// Small scanners for the line formats PyTorch's logs use (FX graph code, tracebacks, kernel
// definitions). They replace std::regex there: libstdc++'s matcher recurses once per
// character a `.*` takes, so a graph line of a few ten thousand characters (a cat of
// thousands of tensors, a long return tuple) overflowed the stack and crashed the reader.
// Each scanner takes a position and returns where its match ends, or npos.

#include <cstddef>
#include <string_view>

namespace fusescope::scan {

constexpr size_t npos = std::string_view::npos;

inline bool isWord(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; }
inline bool isDigit(char c) { return c >= '0' && c <= '9'; }
inline bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// The end of the run of `is` characters at `at` (`at` itself when there is none).
template <class Predicate>
size_t runEnd(std::string_view s, size_t at, Predicate is) {
    while (at < s.size() && is(s[at])) ++at;
    return at;
}
inline size_t spacesEnd(std::string_view s, size_t at) { return runEnd(s, at, isSpace); }

// `\w+` at `at`: the word's end, or npos when none starts there.
inline size_t wordEnd(std::string_view s, size_t at) {
    size_t end = runEnd(s, at, isWord);
    return end > at ? end : npos;
}

// `\d+` at `at`: the digits' end, or npos.
inline size_t digitsEnd(std::string_view s, size_t at) {
    size_t end = runEnd(s, at, isDigit);
    return end > at ? end : npos;
}

// `text` at `at`: its end, or npos.
inline size_t literalEnd(std::string_view s, size_t at, std::string_view text) {
    return at <= s.size() && s.substr(at).starts_with(text) ? at + text.size() : npos;
}

}  // namespace fusescope::scan
