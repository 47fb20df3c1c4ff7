// str % args: printf-style formatting as CPython's PyUnicode_Format does it, with its errors.
#include <algorithm>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "script/graph_break_kinds.h"
#include "script/interpreter.h"
#include "script/utf8.h"
#include "script/types/type_slots.h"

namespace fusescope {

namespace {

struct Conversion {
    bool left = false, zero = false, alternate = false;
    char sign = 0;  // '+', ' ' or none
    int width = -1, precision = -1;
    char type = 0;
};

// The arguments as the format consumes them: a tuple's items one by one, a mapping by key,
// anything else one value.
class Arguments {
public:
    Arguments(Interpreter& in, const Value& args) : in_(in), args_(args) {
        if (const auto* tuple = args.as<TupleObject>()) items_ = tuple->items;
        else items_ = {args};
        mapping_ = args.as<DictObject>() != nullptr;
    }
    Value next() {
        if (next_ >= items_.size()) in_.fail("TypeError", "not enough arguments for format string");
        return items_[next_++];
    }
    Value byKey(const std::string& key) {
        if (!mapping_) in_.fail("TypeError", "format requires a mapping");
        usedKey_ = true;
        const Value* found = args_.as<DictObject>()->findString(key);
        if (!found) in_.raise("KeyError", {Value(key)});
        return *found;
    }
    // Python's check at the end: every positional argument used (a mapping needs none).
    void finish() const {
        if (next_ < items_.size() && !(mapping_ && (usedKey_ || next_ == 0)))
            in_.fail("TypeError", "not all arguments converted during string formatting");
    }

private:
    Interpreter& in_;
    Value args_;
    ValueList items_;
    size_t next_ = 0;
    bool mapping_ = false, usedKey_ = false;
};

// "%f" % t reads a graph value's data: PyTorch's Dynamo cannot resume after that op.
GraphBreak percentFormatBreak() { return graph_breaks::dataDependentOperator("aten._local_scalar_dense.default", true); }

// A number argument as %d and %f read it: Python calls __index__/__int__ or __float__.
double realNumber(Interpreter& in, const Value& v, char type) {
    if (v.isBool()) return v.asBool() ? 1 : 0;
    if (v.isInt()) return static_cast<double>(v.asInt());
    if (v.isFloat()) return v.asFloat();
    if (v.isTensor() && v.asTensor().numel() == 1) return in.realTensor(v.asTensor(), percentFormatBreak).item();
    in.fail("TypeError", fmt::format("%{} format: a real number is required, not {}", type, pythonTypeName(v)));
}

int64_t integer(Interpreter& in, const Value& v, char type) {
    if (v.isBool()) return v.asBool() ? 1 : 0;
    if (v.isInt()) return v.asInt();
    if (v.isTensor() && v.asTensor().numel() == 1 && !isFloating(v.asTensor().dtype()))
        return in.realTensor(v.asTensor(), percentFormatBreak).readInt64(0);
    if (type != 'd' && type != 'i' && type != 'u')
        in.fail("TypeError", fmt::format("%{} format: an integer is required, not {}", type, pythonTypeName(v)));
    double real = realNumber(in, v, type);
    if (!std::isfinite(real))
        in.fail(std::isnan(real) ? "ValueError" : "OverflowError",
                std::isnan(real) ? "cannot convert float NaN to integer" : "cannot convert float infinity to integer");
    return static_cast<int64_t>(std::trunc(real));
}

std::string padded(const Conversion& c, const std::string& prefix, const std::string& digits) {
    const size_t width = c.width < 0 ? 0 : static_cast<size_t>(c.width);
    const size_t length = prefix.size() + codePointCount(digits);  // a width counts characters
    if (length >= width) return prefix + digits;
    if (c.left) return prefix + digits + std::string(width - length, ' ');
    if (c.zero) return prefix + std::string(width - length, '0') + digits;
    return std::string(width - length, ' ') + prefix + digits;
}

std::string formatInteger(int64_t v, const Conversion& c) {
    uint64_t magnitude = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
    std::string digits = c.type == 'x'   ? fmt::format("{:x}", magnitude)
                         : c.type == 'X' ? fmt::format("{:X}", magnitude)
                         : c.type == 'o' ? fmt::format("{:o}", magnitude)
                                         : std::to_string(magnitude);
    if (c.precision > static_cast<int>(digits.size())) digits.insert(0, static_cast<size_t>(c.precision) - digits.size(), '0');
    std::string prefix = v < 0 ? "-" : c.sign ? std::string(1, c.sign) : "";
    if (c.alternate && c.type != 'd' && c.type != 'i' && c.type != 'u') prefix += c.type == 'o' ? "0o" : c.type == 'x' ? "0x" : "0X";
    return padded(c, prefix, digits);
}

std::string formatReal(double v, const Conversion& c) {
    std::string spec;
    if (c.left) spec += '<';
    if (c.sign) spec += c.sign;
    if (c.alternate) spec += '#';
    if (c.zero && !c.left) spec += '0';
    if (c.width >= 0) spec += std::to_string(c.width);
    spec += '.' + std::to_string(c.precision < 0 ? 6 : c.precision);
    spec += c.type == 'F' ? 'f' : c.type;  // Python prints %F as %f does, upper case only for inf/nan
    std::string text = formatWithSpec(Value(v), spec);
    if (c.type == 'F') std::transform(text.begin(), text.end(), text.begin(), [](char ch) { return static_cast<char>(std::toupper(ch)); });
    return text;
}

std::string formatText(std::string text, const Conversion& c) {
    if (c.precision >= 0) text = std::string(codePointPrefix(text, static_cast<size_t>(c.precision)));
    Conversion noZero = c;
    noZero.zero = false;  // strings pad with spaces whatever the flags
    return padded(noZero, "", text);
}

}  // namespace

Value percentFormat(Interpreter& in, const std::string& format, const Value& args) {
    Arguments arguments(in, args);
    std::string out;
    size_t i = 0;
    auto number = [&](int& into) {  // a width or precision: digits, or * taking an argument
        if (i < format.size() && format[i] == '*') {
            ++i;
            Value v = arguments.next();
            if (!v.isInt()) in.fail("TypeError", "* wants int");
            into = static_cast<int>(v.asInt());
            return;
        }
        if (i >= format.size() || !std::isdigit(static_cast<unsigned char>(format[i]))) return;
        into = 0;
        while (i < format.size() && std::isdigit(static_cast<unsigned char>(format[i]))) into = into * 10 + (format[i++] - '0');
    };
    while (i < format.size()) {
        size_t percent = format.find('%', i);
        out += format.substr(i, percent - i);
        if (percent == std::string::npos) break;
        i = percent + 1;
        Conversion c;
        std::optional<Value> keyed;
        if (i < format.size() && format[i] == '(') {
            size_t close = format.find(')', i);
            if (close == std::string::npos) in.fail("ValueError", "incomplete format key");
            keyed = arguments.byKey(format.substr(i + 1, close - i - 1));
            i = close + 1;
        }
        for (; i < format.size() && std::string("-+ #0").find(format[i]) != std::string::npos; ++i) {
            if (format[i] == '-') c.left = true;
            else if (format[i] == '0') c.zero = true;
            else if (format[i] == '#') c.alternate = true;
            else if (format[i] == '+' || c.sign != '+') c.sign = format[i];
        }
        number(c.width);
        if (c.width < 0 && i > 0 && format[i - 1] == '*') c.left = true, c.width = -c.width;
        if (i < format.size() && format[i] == '.') {
            ++i;
            c.precision = 0;
            number(c.precision);
        }
        while (i < format.size() && (format[i] == 'h' || format[i] == 'l' || format[i] == 'L')) ++i;  // C's length modifiers
        if (i >= format.size()) in.fail("ValueError", "incomplete format");
        c.type = format[i++];
        if (c.type == '%') {
            out += '%';
            continue;
        }
        Value v = keyed ? *keyed : Value();
        auto argument = [&] { return keyed ? v : arguments.next(); };
        switch (c.type) {
        case 's': out += formatText(in.str(argument()), c); break;
        case 'r':
        case 'a': out += formatText(in.repr(argument()), c); break;
        case 'd':
        case 'i':
        case 'u':
        case 'o':
        case 'x':
        case 'X': out += formatInteger(integer(in, argument(), c.type), c); break;
        case 'e':
        case 'E':
        case 'f':
        case 'F':
        case 'g':
        case 'G': out += formatReal(realNumber(in, argument(), c.type), c); break;
        case 'c': {
            Value ch = argument();
            if (ch.isString() && ch.asString().size() == 1) out += formatText(ch.asString(), c);
            else if (ch.isInt() && ch.asInt() >= 0 && ch.asInt() < 128) out += formatText(std::string(1, static_cast<char>(ch.asInt())), c);
            else in.fail("TypeError", "%c requires an int or a unicode character, not " + pythonTypeName(ch));
            break;
        }
        default:
            in.fail("ValueError", fmt::format("unsupported format character '{}' (0x{:x}) at index {}", c.type,
                                              static_cast<unsigned char>(c.type), i - 1));
        }
    }
    arguments.finish();
    return Value(out);
}

}  // namespace fusescope
