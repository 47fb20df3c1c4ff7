#include "script/utf8.h"

namespace fusescope {

void appendUtf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

namespace {

// The code point at text[at] and how many bytes it takes; a byte that starts no valid
// sequence is itself, one byte long.
std::pair<uint32_t, size_t> decodeAt(std::string_view text, size_t at) {
    const auto lead = static_cast<unsigned char>(text[at]);
    const size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    uint32_t cp = length == 1 ? lead : lead & (0x7F >> length);
    bool valid = at + length <= text.size();
    for (size_t k = 1; valid && k < length; ++k) {
        const auto next = static_cast<unsigned char>(text[at + k]);
        valid = (next & 0xC0) == 0x80;
        cp = (cp << 6) | (next & 0x3F);
    }
    return valid ? std::pair{cp, length} : std::pair{uint32_t{lead}, size_t{1}};
}

}  // namespace

std::vector<uint32_t> codePoints(const std::string& text) {
    std::vector<uint32_t> out;
    for (size_t i = 0; i < text.size();) {
        const auto [cp, length] = decodeAt(text, i);
        out.push_back(cp);
        i += length;
    }
    return out;
}

bool isAscii(std::string_view text) {
    for (char c : text)
        if (static_cast<unsigned char>(c) >= 0x80) return false;
    return true;
}

std::vector<size_t> codePointOffsets(std::string_view text) {
    std::vector<size_t> offsets;
    for (size_t i = 0; i < text.size(); i += decodeAt(text, i).second) offsets.push_back(i);
    offsets.push_back(text.size());
    return offsets;
}

size_t codePointCount(std::string_view text) {
    if (isAscii(text)) return text.size();
    size_t count = 0;
    for (size_t i = 0; i < text.size(); i += decodeAt(text, i).second) ++count;
    return count;
}

std::string_view codePointPrefix(std::string_view text, size_t count) {
    size_t i = 0;
    for (size_t n = 0; n < count && i < text.size(); ++n) i += decodeAt(text, i).second;
    return text.substr(0, i);
}

}  // namespace fusescope
