// UTF-8, the encoding of every script string (strings are stored as their UTF-8 bytes).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace fusescope {

void appendUtf8(std::string& out, uint32_t codePoint);

// The code points of UTF-8 text; a byte that starts no valid sequence is taken as itself.
std::vector<uint32_t> codePoints(const std::string& text);

}  // namespace fusescope
