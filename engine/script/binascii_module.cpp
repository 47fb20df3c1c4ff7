// binascii for scripts (CPython's Modules/binascii.c, the conversions base64 and scripts
// use): base64 lines in both directions, with a2b_base64's lenient and strict modes and
// their binascii.Error messages, and hex.
#include <fmt/format.h>

#include "core/base64.h"
#include "script/interpreter.h"
#include "script/types/bytes_type.h"

namespace fusescope {

namespace {

[[noreturn]] void binasciiError(Interpreter& in, const std::string& message) { in.fail("binascii.Error", message); }

// The data of a bytes-like argument or of an ASCII str (a2b_* accept both, as CPython's).
std::string asciiData(Interpreter& in, const Value& v) {
    if (const std::string* b = bytesData(v)) return *b;
    if (!v.isString()) in.fail("TypeError", "argument should be bytes, buffer or ASCII string, not '" + pythonTypeName(v) + "'");
    for (char c : v.asString())
        if (static_cast<unsigned char>(c) >= 0x80) in.fail("ValueError", "string argument should contain only ASCII characters");
    return v.asString();
}

bool flagArgument(Interpreter& in, const CallArgs& a, const char* name, bool fallback) {
    const Value* v = a.kwarg(name);
    return v ? in.truthy(*v) : fallback;
}

std::string decodeBase64(Interpreter& in, const std::string& text, bool strict) {
    std::string out;
    int quad = 0, pads = 0;
    bool paddingStarted = false;
    uint32_t left = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '=') {
            paddingStarted = true;
            if (strict && quad == 0) binasciiError(in, i == 0 ? "Leading padding not allowed" : "Excess padding not allowed");
            if (quad >= 2 && quad + ++pads >= 4) {
                if (strict && i + 1 < text.size()) binasciiError(in, "Excess data after padding");
                return out;
            }
            continue;
        }
        const size_t digit = kBase64Alphabet.find(c);
        if (digit == std::string_view::npos) {
            if (strict) binasciiError(in, "Only base64 data is allowed");
            continue;
        }
        if (strict && paddingStarted) binasciiError(in, "Discontinuous padding not allowed");
        pads = 0;
        const auto v = static_cast<uint32_t>(digit);
        switch (quad) {
        case 0: left = v; break;
        case 1: out += static_cast<char>(left << 2 | v >> 4), left = v & 0xF; break;
        case 2: out += static_cast<char>(left << 4 | v >> 2), left = v & 0x3; break;
        case 3: out += static_cast<char>(left << 6 | v); break;
        }
        quad = (quad + 1) % 4;
    }
    if (quad == 1)
        binasciiError(in, fmt::format("Invalid base64-encoded string: number of data characters ({}) cannot be 1 more than a multiple of 4",
                                      out.size() / 3 * 4 + 1));
    if (quad != 0) binasciiError(in, "Incorrect padding");
    return out;
}

std::string hexOf(const std::string& data) {
    std::string out;
    for (char c : data) out += fmt::format("{:02x}", static_cast<unsigned char>(c));
    return out;
}

std::string unhex(Interpreter& in, const std::string& text) {
    if (text.size() % 2) binasciiError(in, "Odd-length string");
    auto digit = [&](char c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        binasciiError(in, "Non-hexadecimal digit found");
    };
    std::string out;
    for (size_t i = 0; i < text.size(); i += 2) out += static_cast<char>(digit(text[i]) * 16 + digit(text[i + 1]));
    return out;
}

const Value& onlyArgument(Interpreter& in, const CallArgs& a, const char* name) {
    if (a.args.size() != 1) in.fail("TypeError", fmt::format("{}() takes exactly one positional argument ({} given)", name, a.args.size()));
    return a.args[0];
}

}  // namespace

Value makeBinasciiModule(Interpreter& interp) {
    auto module = std::make_shared<ModuleObject>();
    module->name = "binascii";
    auto& attrs = module->attrs;
    attrs["Error"] = Value(ObjectPtr(interp.moduleExceptionClass("binascii", "Error", "ValueError")));
    attrs["b2a_base64"] = makeBuiltin("b2a_base64", [](Interpreter& in, CallArgs& a) {
        const std::string encoded = base64Encode(requireBytes(in, onlyArgument(in, a, "b2a_base64")));
        return makeBytes(flagArgument(in, a, "newline", true) ? encoded + "\n" : encoded);
    });
    attrs["a2b_base64"] = makeBuiltin("a2b_base64", [](Interpreter& in, CallArgs& a) {
        return makeBytes(decodeBase64(in, asciiData(in, onlyArgument(in, a, "a2b_base64")), flagArgument(in, a, "strict_mode", false)));
    });
    for (const char* name : {"hexlify", "b2a_hex"})
        attrs[name] = makeBuiltin(name, [name](Interpreter& in, CallArgs& a) { return makeBytes(hexOf(requireBytes(in, onlyArgument(in, a, name)))); });
    for (const char* name : {"unhexlify", "a2b_hex"})
        attrs[name] = makeBuiltin(name, [name](Interpreter& in, CallArgs& a) { return makeBytes(unhex(in, asciiData(in, onlyArgument(in, a, name)))); });
    return Value(ObjectPtr(module));
}

}  // namespace fusescope
