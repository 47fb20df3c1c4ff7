#include "core/base64.h"

#include <algorithm>
#include <cstdint>

namespace fusescope {

std::string base64Encode(std::string_view data) {
    std::string out;
    out.reserve((data.size() + 2) / 3 * 4);
    for (size_t i = 0; i < data.size(); i += 3) {
        uint32_t chunk = 0;
        const size_t n = std::min<size_t>(3, data.size() - i);
        for (size_t k = 0; k < 3; ++k) chunk = chunk << 8 | (k < n ? static_cast<unsigned char>(data[i + k]) : 0);
        for (size_t k = 0; k < 4; ++k) out += k <= n ? kBase64Alphabet[(chunk >> (18 - 6 * k)) & 63] : '=';
    }
    return out;
}

std::optional<std::string> base64Decode(std::string_view text) {
    if (text.size() % 4 != 0) return std::nullopt;
    std::string out;
    out.reserve(text.size() / 4 * 3);
    for (size_t i = 0; i < text.size(); i += 4) {
        uint32_t chunk = 0;
        int pads = 0;
        for (size_t k = 0; k < 4; ++k) {
            const char c = text[i + k];
            size_t digit = c == '=' ? 0 : kBase64Alphabet.find(c);
            if (c == '=' ? (i + 4 != text.size() || k < 2 || (k == 2 && text[i + 3] != '=')) : (digit == std::string_view::npos || pads))
                return std::nullopt;
            pads += c == '=';
            chunk = chunk << 6 | static_cast<uint32_t>(digit);
        }
        for (int k = 0; k < 3 - pads; ++k) out += static_cast<char>((chunk >> (16 - 8 * k)) & 0xff);
    }
    return out;
}

}  // namespace fusescope
