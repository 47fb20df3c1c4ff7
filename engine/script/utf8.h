// UTF-8, the encoding of every script string (strings are stored as their UTF-8 bytes).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fusescope {

void appendUtf8(std::string& out, uint32_t codePoint);

// The code points of UTF-8 text; a byte that starts no valid sequence is taken as itself.
std::vector<uint32_t> codePoints(const std::string& text);

// A str's length, indices and widths count code points, as Python's do: these turn them into
// the UTF-8 bytes strings are held as. Text of ASCII only (the common case) needs none.
bool isAscii(std::string_view text);
// Where each code point starts (as codePoints reads them), then text.size().
std::vector<size_t> codePointOffsets(std::string_view text);
size_t codePointCount(std::string_view text);
// The first `count` code points (all of the text when it has fewer).
std::string_view codePointPrefix(std::string_view text, size_t count);

}  // namespace fusescope
