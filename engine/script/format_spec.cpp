// Python's format(value, spec) (the format-spec mini-language) for f-strings.
#include <cmath>

#include <fmt/format.h>

#include "core/tensor_format.h"
#include "script/interpreter.h"
#include "script/utf8.h"

namespace fusescope {

namespace {

struct Spec {
    char fill = ' ';
    char align = 0;  // < > ^ =
    char sign = '-';
    bool alternate = false;
    bool zero = false;
    int width = 0;
    char grouping = 0;  // , or _
    int precision = -1;
    char type = 0;
};

Spec parseSpec(const std::string& text) {
    Spec s;
    size_t i = 0;
    auto isAlign = [](char c) { return c == '<' || c == '>' || c == '^' || c == '='; };
    if (text.size() >= 2 && isAlign(text[1])) {
        s.fill = text[0];
        s.align = text[1];
        i = 2;
    } else if (!text.empty() && isAlign(text[0])) {
        s.align = text[0];
        i = 1;
    }
    if (i < text.size() && (text[i] == '+' || text[i] == '-' || text[i] == ' ')) s.sign = text[i++];
    if (i < text.size() && text[i] == '#') {
        s.alternate = true;
        ++i;
    }
    if (i < text.size() && text[i] == '0') {
        s.zero = true;
        ++i;
    }
    // Widths and precisions past what a string can usefully hold are errors, not overflow.
    auto digits = [&](int& value) {
        while (i < text.size() && isdigit(static_cast<unsigned char>(text[i]))) {
            value = value * 10 + (text[i++] - '0');
            if (value > 100'000'000) throw ScriptError("ValueError", "Too many decimal digits in format string");
        }
    };
    digits(s.width);
    if (i < text.size() && (text[i] == ',' || text[i] == '_')) s.grouping = text[i++];
    if (i < text.size() && text[i] == '.') {
        ++i;
        s.precision = 0;
        if (i >= text.size() || !isdigit(static_cast<unsigned char>(text[i])))
            throw ScriptError("ValueError", "Format specifier missing precision");
        digits(s.precision);
    }
    if (i < text.size()) s.type = text[i++];
    if (i != text.size()) throw ScriptError("ValueError", "Invalid format specifier '" + text + "'");
    return s;
}

std::string group(const std::string& digits, char sep) {
    // digits: the integer part without sign
    std::string out;
    int count = 0;
    for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
        if (count && count % 3 == 0) out.insert(out.begin(), sep);
        out.insert(out.begin(), *it);
        ++count;
    }
    return out;
}

// Pads body (with its sign already split off) to the spec's width.
std::string pad(std::string sign, std::string body, const Spec& s, char defaultAlign) {
    char align = s.align ? s.align : (s.zero ? '=' : defaultAlign);
    char fill = s.align ? s.fill : (s.zero ? '0' : ' ');
    int len = static_cast<int>(sign.size() + codePointCount(body));  // a width counts characters
    if (len >= s.width) return sign + body;
    std::string padding(static_cast<size_t>(s.width - len), fill);
    switch (align) {
    case '<': return sign + body + padding;
    case '^': {
        size_t left = padding.size() / 2;
        return padding.substr(0, left) + sign + body + padding.substr(left);
    }
    case '=': return sign + padding + body;
    default: return padding + sign + body;
    }
}

std::string signOf(bool negative, char signMode) {
    if (negative) return "-";
    if (signMode == '+') return "+";
    if (signMode == ' ') return " ";
    return "";
}

std::string formatInt(int64_t v, const Spec& s) {
    bool negative = v < 0;
    uint64_t mag = negative ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
    std::string body;
    switch (s.type) {
    case 0:
    case 'd':
    case 'n': body = std::to_string(mag); break;
    case 'x': body = (s.alternate ? "0x" : "") + fmt::format("{:x}", mag); break;
    case 'X': body = (s.alternate ? "0X" : "") + fmt::format("{:X}", mag); break;
    case 'o': body = (s.alternate ? "0o" : "") + fmt::format("{:o}", mag); break;
    case 'b': body = (s.alternate ? "0b" : "") + fmt::format("{:b}", mag); break;
    case 'c': return pad("", std::string(1, static_cast<char>(v)), s, '<');
    default: throw ScriptError("ValueError", fmt::format("Unknown format code '{}' for object of type 'int'", s.type));
    }
    if (s.grouping && (s.type == 0 || s.type == 'd')) body = group(body, s.grouping);
    return pad(signOf(negative, s.sign), body, s, '>');
}

std::string formatFloat(double v, const Spec& s) {
    bool negative = std::signbit(v) && !std::isnan(v);
    double mag = std::fabs(v);
    std::string body;
    int precision = s.precision < 0 ? 6 : s.precision;
    switch (s.type) {
    case 0:
        if (s.precision < 0) {
            body = formatPythonFloat(mag);
        } else {
            body = fmt::format("{:.{}g}", mag, std::max(precision, 1));
            if (body.find_first_of(".eIn") == std::string::npos) body += ".0";
        }
        break;
    case 'f':
    case 'F': body = fmt::format("{:.{}f}", mag, precision); break;
    case 'e':
    case 'E': body = fmt::format(fmt::runtime(s.type == 'e' ? "{:.{}e}" : "{:.{}E}"), mag, precision); break;
    case 'g':
    case 'G': body = fmt::format(fmt::runtime(s.type == 'g' ? "{:.{}g}" : "{:.{}G}"), mag, std::max(precision, 1)); break;
    case '%': body = fmt::format("{:.{}f}%", mag * 100.0, precision); break;
    default: throw ScriptError("ValueError", fmt::format("Unknown format code '{}' for object of type 'float'", s.type));
    }
    // '#': a decimal point even with no digits after it ("3.", "3.e+00").
    if (s.alternate && precision == 0 && std::isfinite(mag) && std::string("fFeE").find(s.type) != std::string::npos) {
        size_t exponent = body.find_first_of("eE");
        body.insert(exponent == std::string::npos ? body.size() : exponent, ".");
    }
    if (std::isinf(mag)) body = (s.type == 'F' || s.type == 'E' || s.type == 'G') ? "INF" : "inf";
    if (std::isnan(v)) body = (s.type == 'F' || s.type == 'E' || s.type == 'G') ? "NAN" : "nan";
    if (s.grouping) {
        size_t end = body.find_first_of(".e%");
        std::string intPart = body.substr(0, end);
        if (std::all_of(intPart.begin(), intPart.end(), ::isdigit))
            body = group(intPart, s.grouping) + (end == std::string::npos ? "" : body.substr(end));
    }
    return pad(signOf(negative, s.sign), body, s, '>');
}

}  // namespace

std::string formatWithSpec(const Value& value, const std::string& specText) {
    // Tensor.__format__ formats a 0-d tensor as its Python number.
    if (value.isTensor() && value.asTensor().dim() == 0 && specText.empty()) {
        const Tensor& t = value.asTensor();
        if (t.dtype() == DType::Bool) return t.item() != 0.0 ? "True" : "False";
        if (isIntegral(t.dtype())) return std::to_string(t.readInt64(0));
        return formatPythonFloat(t.item());
    }
    if (specText.empty()) return valueStr(value);
    Spec s = parseSpec(specText);
    if (value.isTensor()) {
        const Tensor& t = value.asTensor();
        if (t.dim() != 0) throw ScriptError("TypeError", "unsupported format string passed to Tensor.__format__");
        if (t.dtype() == DType::Bool || isIntegral(t.dtype())) return formatInt(t.readInt64(0), s);
        return formatFloat(t.item(), s);
    }
    if (value.isBool() || value.isInt()) {
        int64_t v = value.isBool() ? (value.asBool() ? 1 : 0) : value.asInt();
        if (s.type && std::string("eEfFgG%").find(s.type) != std::string::npos) return formatFloat(static_cast<double>(v), s);
        return formatInt(v, s);
    }
    if (value.isFloat()) return formatFloat(value.asFloat(), s);
    if (value.isString()) {
        if (s.type && s.type != 's') throw ScriptError("ValueError", fmt::format("Unknown format code '{}' for object of type 'str'", s.type));
        std::string body = value.asString();
        if (s.precision >= 0) body = std::string(codePointPrefix(body, static_cast<size_t>(s.precision)));
        return pad("", body, s, '<');
    }
    throw ScriptError("TypeError", "unsupported format string passed to " + pythonTypeName(value) + ".__format__");
}

}  // namespace fusescope
