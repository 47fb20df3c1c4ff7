// The codecs str.encode and bytes.decode name. Script strings are UTF-8 already, so utf-8
// encoding is a copy and decoding is validation, reporting bad bytes as CPython's decoder
// does (the maximal invalid prefix of a sequence, "invalid continuation byte", ...).
#include "script/text_codecs.h"

#include <algorithm>

#include <fmt/format.h>

#include "script/interpreter.h"
#include "script/utf8.h"

namespace fusescope {

namespace {

enum class Codec { Utf8, Ascii, Latin1 };

Codec codecNamed(Interpreter& in, const std::string& encoding) {
    std::string name = encoding;
    std::transform(name.begin(), name.end(), name.begin(), [](char c) { return c == '_' ? '-' : static_cast<char>(::tolower(static_cast<unsigned char>(c))); });
    if (name == "utf-8" || name == "utf8" || name == "u8") return Codec::Utf8;
    if (name == "ascii" || name == "us-ascii" || name == "646") return Codec::Ascii;
    if (name == "latin-1" || name == "latin1" || name == "iso-8859-1" || name == "iso8859-1" || name == "l1" || name == "8859")
        return Codec::Latin1;
    in.fail("LookupError", "unknown encoding: " + encoding);
}

const char* codecName(Codec codec) { return codec == Codec::Utf8 ? "utf-8" : codec == Codec::Ascii ? "ascii" : "latin-1"; }

// How an unencodable or undecodable stretch is handled: raise, skip, or replace it.
enum class Handler { Strict, Ignore, Replace };

Handler handlerNamed(Interpreter& in, const std::string& errors) {
    if (errors == "strict") return Handler::Strict;
    if (errors == "ignore") return Handler::Ignore;
    if (errors == "replace") return Handler::Replace;
    in.fail("LookupError", "unknown error handler name '" + errors + "'");
}

// "position 3" or "positions 3-4", as CPython words a stretch of one or more.
std::string positions(size_t start, size_t end) {
    return end - start == 1 ? fmt::format("position {}", start) : fmt::format("position {}-{}", start, end - 1);
}

std::string characterRepr(uint32_t cp) {
    if (cp < 0x100) return fmt::format("'\\x{:02x}'", cp);
    if (cp < 0x10000) return fmt::format("'\\u{:04x}'", cp);
    return fmt::format("'\\U{:08x}'", cp);
}

// The valid UTF-8 sequence at data[i], or the maximal invalid prefix of one (at least a
// byte) with why it is invalid.
struct Utf8Step {
    size_t length;
    bool valid;
    const char* reason = nullptr;
};

Utf8Step utf8Step(const std::string& data, size_t i) {
    const auto byte = [&](size_t k) { return static_cast<unsigned char>(data[k]); };
    const unsigned char lead = byte(i);
    if (lead < 0x80) return {1, true};
    size_t need;
    unsigned char low = 0x80, high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) need = 1;
    else if (lead >= 0xE0 && lead <= 0xEF) need = 2, low = lead == 0xE0 ? 0xA0 : 0x80, high = lead == 0xED ? 0x9F : 0xBF;
    else if (lead >= 0xF0 && lead <= 0xF4) need = 3, low = lead == 0xF0 ? 0x90 : 0x80, high = lead == 0xF4 ? 0x8F : 0xBF;
    else return {1, false, "invalid start byte"};
    for (size_t k = 1; k <= need; ++k) {
        if (i + k >= data.size()) return {k, false, "unexpected end of data"};
        const unsigned char c = byte(i + k);
        if (c < (k == 1 ? low : 0x80) || c > (k == 1 ? high : 0xBF)) return {k, false, "invalid continuation byte"};
    }
    return {need + 1, true};
}

[[noreturn]] void decodeError(Interpreter& in, Codec codec, const std::string& data, size_t start, size_t end, const char* reason) {
    const std::string what = end - start == 1 ? fmt::format("byte 0x{:02x} in {}", static_cast<unsigned char>(data[start]), positions(start, end))
                                              : "bytes in " + positions(start, end);
    in.fail("UnicodeDecodeError", fmt::format("'{}' codec can't decode {}: {}", codecName(codec), what, reason));
}

}  // namespace

std::string encodeText(Interpreter& in, const std::string& text, const std::string& encoding, const std::string& errors) {
    const Codec codec = codecNamed(in, encoding);
    if (codec == Codec::Utf8) return text;
    const uint32_t limit = codec == Codec::Ascii ? 0x80 : 0x100;
    const std::vector<uint32_t> points = codePoints(text);
    std::string out;
    for (size_t i = 0; i < points.size(); ++i) {
        if (points[i] < limit) {
            out += static_cast<char>(points[i]);
            continue;
        }
        size_t end = i;
        while (end < points.size() && points[end] >= limit) ++end;
        switch (handlerNamed(in, errors)) {
        case Handler::Strict: {
            const std::string what = end - i == 1 ? "character " + characterRepr(points[i]) + " in " + positions(i, end)
                                                  : "characters in " + positions(i, end);
            in.fail("UnicodeEncodeError", fmt::format("'{}' codec can't encode {}: ordinal not in range({})", codecName(codec), what, limit));
        }
        case Handler::Ignore: break;
        case Handler::Replace: out.append(end - i, '?'); break;
        }
        i = end - 1;
    }
    return out;
}

std::string decodeBytes(Interpreter& in, const std::string& data, const std::string& encoding, const std::string& errors) {
    const Codec codec = codecNamed(in, encoding);
    std::string out;
    for (size_t i = 0; i < data.size();) {
        const auto byte = static_cast<unsigned char>(data[i]);
        Utf8Step step{1, true};
        if (codec == Codec::Utf8) step = utf8Step(data, i);
        else if (codec == Codec::Ascii && byte >= 0x80) step = {1, false, "ordinal not in range(128)"};
        if (step.valid) {
            if (codec == Codec::Utf8) out.append(data, i, step.length);
            else appendUtf8(out, byte);
        } else {
            switch (handlerNamed(in, errors)) {
            case Handler::Strict: decodeError(in, codec, data, i, i + step.length, step.reason);
            case Handler::Ignore: break;
            case Handler::Replace: appendUtf8(out, 0xFFFD); break;
            }
        }
        i += step.length;
    }
    return out;
}

}  // namespace fusescope
