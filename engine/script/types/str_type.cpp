// The methods of str (CPython's Objects/unicodeobject.c method table, the subset scripts
// use), on the UTF-8 bytes, with positions, lengths and widths in code points as Python's;
// case and character classes are ASCII's (non-ASCII text there is a NotImplementedError).
#include <algorithm>
#include <cctype>

#include "script/interpreter.h"
#include "script/types/bytes_type.h"
#include "script/types/indexing.h"
#include "script/types/method_table.h"
#include "script/types/numbers.h"
#include "script/types/type_slots.h"
#include "script/utf8.h"

namespace fusescope {

namespace {

constexpr const char* kWhitespace = " \t\n\r\f\v";

const std::string& textOf(const Value& self) { return self.asString(); }

thread_local bool onBytes = false;  // StrMethodsOnBytes

// Text whose positions are its bytes: ASCII, or the bytes of a bytes object.
bool bytewise(std::string_view text) { return onBytes || isAscii(text); }

// Where a str's code points start in its UTF-8 bytes (no table for bytewise text).
class Positions {
public:
    explicit Positions(const std::string& text) : size_(text.size()) {
        if (!bytewise(text)) offsets_ = codePointOffsets(text);
    }
    int64_t length() const { return offsets_.empty() ? static_cast<int64_t>(size_) : static_cast<int64_t>(offsets_.size()) - 1; }
    size_t byteOf(int64_t index) const { return offsets_.empty() ? static_cast<size_t>(index) : offsets_[static_cast<size_t>(index)]; }
    int64_t indexOf(size_t byte) const {
        if (offsets_.empty()) return static_cast<int64_t>(byte);
        return std::lower_bound(offsets_.begin(), offsets_.end(), byte) - offsets_.begin();
    }

private:
    size_t size_;
    std::vector<size_t> offsets_;
};

// Case conversion and character classes know ASCII only: other text is refused, not passed
// through unchanged ('é'.upper() is 'É' in Python).
void requireAscii(Interpreter& in, const std::string& text) {
    if (!bytewise(text))
        in.fail("NotImplementedError", "str case conversion and character classes of non-ASCII text are not supported by Fusescope yet");
}

// str.format: {} / {0} / {name}, each with an optional !r / !s and :spec.
std::string formatString(Interpreter& in, const std::string& s, const CallArgs& a) {
    std::string out;
    size_t next = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        char c = s[i];
        if ((c == '{' || c == '}') && i + 1 < s.size() && s[i + 1] == c) {
            out += c;
            ++i;
            continue;
        }
        if (c != '{') {
            out += c;
            continue;
        }
        size_t close = s.find('}', i);
        if (close == std::string::npos) in.fail("ValueError", "Single '{' encountered in format string");
        std::string field = s.substr(i + 1, close - i - 1);
        i = close;
        std::string spec, conversion;
        if (size_t colon = field.find(':'); colon != std::string::npos) spec = field.substr(colon + 1), field.resize(colon);
        if (size_t bang = field.find('!'); bang != std::string::npos) conversion = field.substr(bang + 1), field.resize(bang);
        Value value;
        if (field.empty()) {
            if (next >= a.args.size()) in.fail("IndexError", "Replacement index " + std::to_string(next) + " out of range for positional args tuple");
            value = a.args[next++];
        } else if (std::isdigit(static_cast<unsigned char>(field[0]))) {
            size_t index = std::stoul(field);
            if (index >= a.args.size()) in.fail("IndexError", "Replacement index " + field + " out of range for positional args tuple");
            value = a.args[index];
        } else {
            const Value* kw = a.kwarg(field);
            if (!kw) in.raise("KeyError", {Value(field)});
            value = *kw;
        }
        if (conversion == "r") value = Value(in.repr(value));
        else if (conversion == "s") value = Value(in.str(value));
        out += in.formatValue(value, spec);
    }
    return out;
}

Value join(Interpreter& in, const Value& self, CallArgs& a) {
    std::string out;
    bool first = true;
    for (const Value& v : in.iterate(a.args[0])) {
        if (!v.isString()) in.fail("TypeError", "sequence item: expected str instance, " + pythonTypeName(v) + " found");
        if (!first) out += textOf(self);
        out += v.asString();
        first = false;
    }
    return Value(out);
}

template <int (*kConvert)(int)>
Value convertCase(Interpreter& in, const Value& self, CallArgs&) {
    requireAscii(in, textOf(self));
    std::string out = textOf(self);
    std::transform(out.begin(), out.end(), out.begin(), [](char c) { return static_cast<char>(kConvert(static_cast<unsigned char>(c))); });
    return Value(out);
}

// capitalize (the first character upper, the rest lower) and title (each run of letters so),
// ASCII as the rest of str's case methods.
template <bool kEveryWord>
Value capitalizeWords(Interpreter& in, const Value& self, CallArgs&) {
    requireAscii(in, textOf(self));
    std::string out = textOf(self);
    bool wordStart = true;
    for (char& c : out) {
        const auto u = static_cast<unsigned char>(c);
        c = static_cast<char>(wordStart ? ::toupper(u) : ::tolower(u));
        wordStart = kEveryWord ? !::isalpha(u) : false;
    }
    return Value(out);
}

Value swapcase(Interpreter& in, const Value& self, CallArgs&) {
    requireAscii(in, textOf(self));
    std::string out = textOf(self);
    for (char& c : out) {
        const auto u = static_cast<unsigned char>(c);
        c = static_cast<char>(::isupper(u) ? ::tolower(u) : ::toupper(u));
    }
    return Value(out);
}

// strip / lstrip / rstrip, of whitespace or of the characters given (code points).
template <bool kLeft, bool kRight>
Value strip(Interpreter&, const Value& self, CallArgs& a) {
    const std::string& s = textOf(self);
    std::string chars = a.args.empty() || a.args[0].isNone() ? std::string(kWhitespace) : a.args[0].asString();
    if (bytewise(s) && bytewise(chars)) {
        size_t b = kLeft ? s.find_first_not_of(chars) : 0;
        if (b == std::string::npos) return Value(std::string());
        size_t e = kRight ? s.find_last_not_of(chars) : s.size() - 1;
        return Value(s.substr(b, e - b + 1));
    }
    const std::vector<uint32_t> points = codePoints(s), strip = codePoints(chars);
    const std::vector<size_t> offsets = codePointOffsets(s);
    auto stripped = [&](size_t i) { return std::find(strip.begin(), strip.end(), points[i]) != strip.end(); };
    size_t b = 0, e = points.size();
    while (kLeft && b < e && stripped(b)) ++b;
    while (kRight && e > b && stripped(e - 1)) --e;
    return Value(s.substr(offsets[b], offsets[e] - offsets[b]));
}

bool hasAffix(const std::string& s, const std::string& affix, bool atStart) {
    return atStart ? s.rfind(affix, 0) == 0 : s.size() >= affix.size() && s.compare(s.size() - affix.size(), affix.size(), affix) == 0;
}

// The [start, end) of s that find, count, startswith and their kin look in: their optional
// start and end arguments (None for none) at `first`, negative ones from the end, clamped as
// CPython's ADJUST_INDICES clamps them (a start past the end stays there: nothing is found).
struct Window {
    int64_t start, end;
};
Window windowOf(Interpreter& in, int64_t length, const CallArgs& a, size_t first) {
    auto bound = [&](size_t i, int64_t fallback) {
        if (a.args.size() <= i || a.args[i].isNone()) return fallback;
        if (!a.args[i].isInt()) in.fail("TypeError", "slice indices must be integers or None or have an __index__ method");
        return a.args[i].asInt();
    };
    int64_t start = bound(first, 0), end = bound(first + 1, length);
    if (end > length) end = length;
    if (end < 0) end = std::max<int64_t>(end + length, 0);
    if (start < 0) start = std::max<int64_t>(start + length, 0);
    return {start, end};
}

// s.startswith(prefix[, start[, end]]) and endswith: the affix, or any of a tuple of them, at
// that end of the window.
template <bool kAtStart>
Value hasAffixMethod(Interpreter& in, const Value& self, CallArgs& a) {
    const std::string& s = textOf(self);
    const Positions positions(s);
    const Window w = windowOf(in, positions.length(), a, 1);
    auto matches = [&](const Value& affix) {
        if (!affix.isString())
            in.fail("TypeError", std::string(kAtStart ? "startswith" : "endswith") + " first arg must be str or a tuple of str, not " +
                                     pythonTypeName(affix));
        if (w.start > w.end) return false;
        const auto start = static_cast<int64_t>(positions.byteOf(w.start)), end = static_cast<int64_t>(positions.byteOf(w.end));
        const auto size = static_cast<int64_t>(affix.asString().size());
        if (end - size < start) return false;
        return s.compare(static_cast<size_t>(kAtStart ? start : end - size), static_cast<size_t>(size), affix.asString()) == 0;
    };
    if (const auto* tuple = a.args[0].as<TupleObject>())
        return Value(std::any_of(tuple->items.begin(), tuple->items.end(), matches));
    return Value(matches(a.args[0]));
}

template <bool kAtStart>
Value removeAffix(Interpreter&, const Value& self, CallArgs& a) {
    const std::string &s = textOf(self), &affix = a.args[0].asString();
    if (!hasAffix(s, affix, kAtStart)) return Value(s);
    return Value(kAtStart ? s.substr(affix.size()) : s.substr(0, s.size() - affix.size()));
}

Value replace(Interpreter&, const Value& self, CallArgs& a) {
    const std::string& s = textOf(self);
    const std::string& from = a.args[0].asString();
    const std::string& to = a.args[1].asString();
    if (from.empty()) return Value(s);
    std::string out;
    size_t pos = 0;
    for (size_t hit; (hit = s.find(from, pos)) != std::string::npos; pos = hit + from.size()) out += s.substr(pos, hit - pos) + to;
    return Value(out + s.substr(pos));
}

Value format(Interpreter& in, const Value& self, CallArgs& a) { return Value(formatString(in, textOf(self), a)); }

template <bool kFirst>
Value partition(Interpreter& in, const Value& self, CallArgs& a) {
    const std::string& s = textOf(self);
    const std::string& sep = a.args[0].asString();
    if (sep.empty()) in.fail("ValueError", "empty separator");
    size_t at = kFirst ? s.find(sep) : s.rfind(sep);
    if (at == std::string::npos) return kFirst ? makeTuple({Value(s), Value(""), Value("")}) : makeTuple({Value(""), Value(""), Value(s)});
    return makeTuple({Value(s.substr(0, at)), Value(sep), Value(s.substr(at + sep.size()))});
}

// find / rfind: the position or -1; index: the position or ValueError.
enum class Search { Find, RFind, Index, RIndex };
template <Search kHow>
Value search(Interpreter& in, const Value& self, CallArgs& a) {
    const std::string& s = textOf(self);
    const std::string& sub = a.args[0].asString();
    const Positions positions(s);
    const Window w = windowOf(in, positions.length(), a, 1);
    size_t at = std::string::npos, start = 0;
    if (w.start <= w.end) {
        start = positions.byteOf(w.start);
        const size_t end = positions.byteOf(w.end);
        if (end - start >= sub.size()) {  // sub fits in the window
            const std::string inside = s.substr(start, end - start);
            at = kHow == Search::Find || kHow == Search::Index ? inside.find(sub) : inside.rfind(sub);
        }
    }
    if (at != std::string::npos) return Value(positions.indexOf(at + start));
    if (kHow == Search::Index || kHow == Search::RIndex) in.fail("ValueError", "substring not found");
    return Value(int64_t{-1});
}

Value count(Interpreter& in, const Value& self, CallArgs& a) {
    const std::string &s = textOf(self), &sub = a.args[0].asString();
    const Positions positions(s);
    const Window w = windowOf(in, positions.length(), a, 1);
    if (w.start > w.end) return Value(int64_t{0});
    if (sub.empty()) return Value(w.end - w.start + 1);
    const size_t start = positions.byteOf(w.start);
    const std::string inside = s.substr(start, positions.byteOf(w.end) - start);
    int64_t n = 0;
    for (size_t at = inside.find(sub); at != std::string::npos; at = inside.find(sub, at + sub.size())) ++n;
    return Value(n);
}

template <int (*kTest)(int)>
Value isClass(Interpreter& in, const Value& self, CallArgs&) {
    const std::string& s = textOf(self);
    requireAscii(in, s);
    return Value(!s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return kTest(static_cast<unsigned char>(c)) != 0; }));
}

// s.expandtabs(tabsize=8): each tab to spaces up to the next multiple of tabsize in its line.
Value expandTabs(Interpreter& in, const Value& self, CallArgs& a) {
    const Value* size = a.args.empty() ? a.kwarg("tabsize") : &a.args[0];
    if (size && !size->isInt()) in.fail("TypeError", "'" + pythonTypeName(*size) + "' object cannot be interpreted as an integer");
    const int64_t tab = size ? size->asInt() : 8;
    std::string out;
    int64_t column = 0;
    for (char c : textOf(self)) {
        if (c == '\t') {
            const int64_t spaces = tab > 0 ? tab - column % tab : 0;
            out.append(static_cast<size_t>(spaces), ' ');
            column += spaces;
            continue;
        }
        out += c;
        const bool continuation = !onBytes && (static_cast<unsigned char>(c) & 0xC0) == 0x80;  // of a code point already counted
        column = c == '\n' || c == '\r' ? 0 : column + (continuation ? 0 : 1);
    }
    return Value(out);
}

// s.isidentifier(): a name Python could bind (any non-ASCII byte taken as a letter, as
// Python takes most of them).
Value isIdentifier(Interpreter&, const Value& self, CallArgs&) {
    const std::string& s = textOf(self);
    auto letter = [](unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; };
    return Value(!s.empty() && letter(s[0]) && std::all_of(s.begin(), s.end(), [&](unsigned char c) { return letter(c) || std::isdigit(c); }));
}

// s.islower() / s.isupper(): some cased letter, and none of the other case.
template <bool kLower>
Value isCase(Interpreter& in, const Value& self, CallArgs&) {
    const std::string& s = textOf(self);
    requireAscii(in, s);
    bool cased = false;
    for (unsigned char c : s) {
        if (kLower ? std::isupper(c) : std::islower(c)) return Value(false);
        cased = cased || std::isalpha(c);
    }
    return Value(cased);
}

template <bool kLeft>
Value justify(Interpreter&, const Value& self, CallArgs& a) {
    const std::string& s = textOf(self);
    int64_t width = a.args[0].asInt();
    std::string fill = a.args.size() > 1 ? a.args[1].asString() : " ";
    const auto length = static_cast<int64_t>(bytewise(s) ? s.size() : codePointCount(s));
    if (length >= width || fill.size() != 1) return Value(s);
    std::string pad(static_cast<size_t>(width - length), fill[0]);
    return Value(kLeft ? s + pad : pad + s);
}

Value splitlines(Interpreter&, const Value& self, CallArgs&) {
    const std::string& s = textOf(self);
    ValueList lines;
    size_t start = 0;
    for (size_t i = 0; i < s.size(); ++i)
        if (s[i] == '\n') lines.push_back(Value(s.substr(start, i - start))), start = i + 1;
    if (start < s.size()) lines.push_back(Value(s.substr(start)));
    return makeList(lines);
}

Value split(Interpreter&, const Value& self, CallArgs& a) {
    const std::string& s = textOf(self);
    ValueList parts;
    if (a.args.empty() || a.args[0].isNone()) {
        size_t i = 0;
        while (i < s.size()) {
            while (i < s.size() && isspace(static_cast<unsigned char>(s[i]))) ++i;
            size_t j = i;
            while (j < s.size() && !isspace(static_cast<unsigned char>(s[j]))) ++j;
            if (j > i) parts.push_back(Value(s.substr(i, j - i)));
            i = j;
        }
        return makeList(parts);
    }
    const std::string sep = a.args[0].asString();
    size_t pos = 0;
    for (size_t hit; (hit = s.find(sep, pos)) != std::string::npos; pos = hit + sep.size()) parts.push_back(Value(s.substr(pos, hit - pos)));
    parts.push_back(Value(s.substr(pos)));
    return makeList(parts);
}

}  // namespace

StrMethodsOnBytes::StrMethodsOnBytes() : was_(onBytes) { onBytes = true; }
StrMethodsOnBytes::~StrMethodsOnBytes() { onBytes = was_; }

const MethodTable& strMethods() {
    static const MethodTable table("str", {
        {"join", join, 1, 1},
        {"upper", convertCase<::toupper>, 0, kAnyArgs},
        {"lower", convertCase<::tolower>, 0, kAnyArgs},
        {"capitalize", capitalizeWords<false>, 0, 0},
        {"title", capitalizeWords<true>, 0, 0},
        {"swapcase", swapcase, 0, 0},
        {"strip", strip<true, true>, 0, 1},
        {"lstrip", strip<true, false>, 0, 1},
        {"rstrip", strip<false, true>, 0, 1},
        {"startswith", hasAffixMethod<true>, 1, 3},
        {"endswith", hasAffixMethod<false>, 1, 3},
        {"removeprefix", removeAffix<true>, 1, 1},
        {"removesuffix", removeAffix<false>, 1, 1},
        {"replace", replace, 2, 2},
        {"format", format, 0, kAnyArgs},
        {"partition", partition<true>, 1, 1},
        {"rpartition", partition<false>, 1, 1},
        {"find", search<Search::Find>, 1, 3},
        {"rfind", search<Search::RFind>, 1, 3},
        {"index", search<Search::Index>, 1, 3},
        {"rindex", search<Search::RIndex>, 1, 3},
        {"count", count, 1, 3},
        {"isdigit", isClass<::isdigit>, 0, kAnyArgs},
        {"isalpha", isClass<::isalpha>, 0, kAnyArgs},
        {"isspace", isClass<::isspace>, 0, kAnyArgs},
        {"isalnum", isClass<::isalnum>, 0, kAnyArgs},
        {"expandtabs", expandTabs, 0, 1},
        {"isidentifier", isIdentifier, 0, 0},
        {"islower", isCase<true>, 0, 0},
        {"isupper", isCase<false>, 0, 0},
        {"ljust", justify<true>, 1, 2},
        {"rjust", justify<false>, 1, 2},
        {"splitlines", splitlines, 0, kAnyArgs},
        {"split", split, 0, kAnyArgs},
        {"encode", strEncode, 0, 2},
    });
    return table;
}


// s[i] and s[a:b], by code point.
Value strItem(Interpreter& in, const Value& self, const Value& index) {
    const std::string& s = self.asString();
    const Positions positions(s);
    auto character = [&](int64_t i) { return std::string_view(s).substr(positions.byteOf(i), positions.byteOf(i + 1) - positions.byteOf(i)); };
    if (auto* slice = index.as<SliceObject>()) {
        std::string out;
        for (int64_t i : sliceIndices(*slice, positions.length(), in)) out += character(i);
        return Value(out);
    }
    if (!isIntLike(index)) in.fail("TypeError", "string indices must be integers");
    return Value(std::string(character(normaliseIndex(intOf(index), positions.length(), in, "string"))));
}

}  // namespace fusescope
