// _regex: the engine under the script library's re (re.py). Python's pattern syntax is
// translated to std::regex's ECMAScript grammar (named groups, \A, \Z, Python's $, DOTALL,
// VERBOSE, inline flags); what ECMAScript cannot express (lookbehind, scoped inline flags,
// conditionals, possessive quantifiers) is refused with re.error's words instead of
// matching differently. Positions are str indices, code points: ASCII text and patterns
// match over their bytes, any other over their code points (std::wregex, whose \w, \s and
// case folding are those of the C.UTF-8 locale: Unicode's, as Python's for str patterns).
#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <regex>

#include <fmt/format.h>

#include "script/interpreter.h"
#include "script/utf8.h"

namespace fusescope {

namespace {

// re's flag values.
constexpr int64_t kIgnoreCase = 2, kMultiline = 8, kDotAll = 16, kVerbose = 64;

struct Translated {
    std::string ecmascript;
    int64_t flags = 0;  // with the pattern's inline flags
    int groups = 0;
    std::map<std::string, int> groupIndex;
};

struct Refused {
    std::string message;
    size_t position;
};

// Where a group's name ends: (?P<name>...) and (?P=name).
std::string groupName(const std::string& p, size_t& i, char close) {
    size_t end = p.find(close, i);
    if (end == std::string::npos) throw Refused{"missing " + std::string(1, close) + ", unterminated name", i};
    std::string name = p.substr(i, end - i);
    if (name.empty()) throw Refused{"missing group name", i};
    i = end + 1;
    return name;
}

// The inline flags at the pattern's start, (?imsx); elsewhere, or scoped (?i:...), refused.
int64_t inlineFlags(const std::string& p, size_t& i, bool atStart) {
    int64_t flags = 0;
    size_t start = i - 2;
    for (; i < p.size() && p[i] != ')'; ++i) {
        switch (p[i]) {
            case 'i': flags |= kIgnoreCase; break;
            case 'm': flags |= kMultiline; break;
            case 's': flags |= kDotAll; break;
            case 'x': flags |= kVerbose; break;
            case 'a': case 'u': case 'L': break;
            case ':': case '-': throw Refused{"scoped inline flags (?flags:...) are not supported by Fusescope's re", start};
            default: throw Refused{fmt::format("unknown flag"), i};
        }
    }
    if (i == p.size()) throw Refused{"missing -, : or )", i};
    if (!atStart) throw Refused{"global flags not at the start of the expression", start};
    ++i;  // past ')'
    return flags;
}

// The pattern's leading (?flags) groups, as VERBOSE must be known before the rest is read.
int64_t leadingFlags(const std::string& p) {
    int64_t flags = 0;
    size_t i = 0;
    while (p.compare(i, 2, "(?") == 0 && i + 2 < p.size() && std::string("imsxauL").find(p[i + 2]) != std::string::npos) {
        i += 2;
        flags |= inlineFlags(p, i, true);
    }
    return flags;
}

Translated translate(const std::string& p, int64_t flags) {
    Translated t;
    t.flags = flags | leadingFlags(p);
    const bool verbose = t.flags & kVerbose, dotAll = t.flags & kDotAll, multiline = t.flags & kMultiline;
    std::string& out = t.ecmascript;
    size_t i = 0;
    bool atStart = true;  // only inline flags so far
    while (i < p.size()) {
        const char c = p[i];
        if (verbose && (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v')) {
            ++i;
            continue;
        }
        if (verbose && c == '#') {
            while (i < p.size() && p[i] != '\n') ++i;
            continue;
        }
        if (c == '\\') {
            if (i + 1 == p.size()) throw Refused{"bad escape (end of pattern)", i};
            const char e = p[i + 1];
            if (e == 'A') {
                if (multiline) throw Refused{"\\A in a MULTILINE pattern is not supported by Fusescope's re", i};
                out += '^';
            } else if (e == 'Z') {
                out += "(?![\\s\\S])";
            } else {
                out += p.substr(i, 2);
            }
            i += 2;
            atStart = false;
            continue;
        }
        if (c == '[') {  // a class: copied to its ']', a ']' first in it literal as in Python
            out += '[';
            ++i;
            if (i < p.size() && p[i] == '^') out += p[i++];
            if (i < p.size() && p[i] == ']') {
                out += "\\]";
                ++i;
            }
            while (i < p.size() && p[i] != ']') {
                if (p[i] == '\\' && i + 1 < p.size()) out += p[i++];
                else if (p[i] == '[') out += '\\';  // a literal '[' inside a class
                out += p[i++];
            }
            if (i == p.size()) throw Refused{"unterminated character set", p.rfind('[', i - 1)};
            out += p[i++];
            atStart = false;
            continue;
        }
        if (c == '(' && p.compare(i, 2, "(?") == 0) {
            const size_t start = i;
            i += 2;
            if (i == p.size()) throw Refused{"unexpected end of pattern", i};
            const char k = p[i];
            if (k == 'P' && i + 1 < p.size() && p[i + 1] == '<') {
                i += 2;
                std::string name = groupName(p, i, '>');
                if (t.groupIndex.count(name)) throw Refused{fmt::format("redefinition of group name '{}' as group {}; was group {}", name, t.groups + 1, t.groupIndex[name]), start + 4};
                t.groupIndex[name] = ++t.groups;
                out += '(';
            } else if (k == 'P' && i + 1 < p.size() && p[i + 1] == '=') {
                i += 2;
                std::string name = groupName(p, i, ')');
                auto it = t.groupIndex.find(name);
                if (it == t.groupIndex.end()) throw Refused{fmt::format("unknown group name '{}'", name), start + 4};
                out += fmt::format("(?:\\{})", it->second);
            } else if (k == ':' || k == '=' || k == '!') {
                out += p.substr(start, 3);
                ++i;
            } else if (k == '#') {
                size_t end = p.find(')', i);
                if (end == std::string::npos) throw Refused{"missing ), unterminated comment", start};
                i = end + 1;
                continue;
            } else if (k == '<' && i + 1 < p.size() && (p[i + 1] == '=' || p[i + 1] == '!')) {
                throw Refused{"lookbehind assertions (?<=...) and (?<!...) are not supported by Fusescope's re", start};
            } else if (k == '(' || k == '>') {
                throw Refused{k == '(' ? "conditional groups (?(id)yes|no) are not supported by Fusescope's re"
                                       : "atomic groups (?>...) are not supported by Fusescope's re", start};
            } else {
                inlineFlags(p, i, atStart);  // already applied
                continue;
            }
            atStart = false;
            continue;
        }
        if (c == '(') {
            ++t.groups;
        } else if (c == '.' && dotAll) {
            out += "[\\s\\S]";
            ++i;
            atStart = false;
            continue;
        } else if (c == '$' && !multiline) {  // Python's $: the end, or before a newline ending the string
            out += "(?=\\n?(?![\\s\\S]))";
            ++i;
            atStart = false;
            continue;
        } else if (c == '{' && p.compare(i, 2, "{,") == 0) {  // {,n} is {0,n}
            out += "{0";
            ++i;
            atStart = false;
            continue;
        } else if ((c == '*' || c == '+' || c == '?' || c == '}') && i + 1 < p.size() && p[i + 1] == '+') {
            throw Refused{"possessive quantifiers are not supported by Fusescope's re", i + 1};
        }
        out += c;
        ++i;
        atStart = false;
    }
    return t;
}

struct Compiled {
    Translated pattern;
    std::regex regex;
    std::wregex wide;  // for text or patterns beyond ASCII
};

std::wstring wideText(const std::string& text) {
    std::wstring out;
    for (uint32_t cp : codePoints(text)) out += static_cast<wchar_t>(cp);
    return out;
}

// Unicode's character classes and case folding for wide patterns, where the C library has them.
const std::locale& unicodeLocale() {
    static const std::locale locale = [] {
        try {
            return std::locale("C.UTF-8");
        } catch (const std::runtime_error&) {
            return std::locale::classic();
        }
    }();
    return locale;
}

// Compiled patterns by (pattern, flags), as CPython's re caches them; a bounded cache.
std::shared_ptr<const Compiled> compiled(Interpreter& in, const std::string& pattern, int64_t flags) {
    static std::mutex mutex;
    static std::map<std::pair<std::string, int64_t>, std::shared_ptr<const Compiled>> cache;
    std::lock_guard<std::mutex> lock(mutex);
    auto key = std::make_pair(pattern, flags);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
    auto made = std::make_shared<Compiled>();
    try {
        made->pattern = translate(pattern, flags);
    } catch (const Refused& r) {
        in.fail("ValueError", fmt::format("{} at position {}", r.message, r.position));
    }
    auto syntax = std::regex::ECMAScript;
    if (made->pattern.flags & kIgnoreCase) syntax |= std::regex::icase;
    if (made->pattern.flags & kMultiline) syntax |= std::regex::multiline;
    try {
        made->regex = std::regex(made->pattern.ecmascript, syntax);
        made->wide.imbue(unicodeLocale());
        made->wide.assign(wideText(made->pattern.ecmascript), syntax);
    } catch (const std::regex_error& e) {
        in.fail("ValueError", fmt::format("{} (in the pattern {})", e.what(), pattern));
    }
    if (cache.size() >= 512) cache.clear();
    return cache.emplace(key, made).first->second;
}

const std::string& stringArg(Interpreter& in, const CallArgs& a, size_t index, const char* what) {
    if (index >= a.args.size() || !a.args[index].isString()) in.fail("TypeError", std::string(what) + " must be a str");
    return a.args[index].asString();
}

int64_t intArg(Interpreter& in, const CallArgs& a, size_t index, const char* what) {
    if (index >= a.args.size() || !a.args[index].isInt()) in.fail("TypeError", std::string(what) + " must be an int");
    return a.args[index].asInt();
}

// The spans of a match, [start0, end0, start1, end1, ...], -1 for a group that took no part.
template <class Match, class Iterator>
Value spans(const Match& m, Iterator begin) {
    ValueList out;
    for (size_t g = 0; g < m.size(); ++g) {
        out.emplace_back(m[g].matched ? static_cast<int64_t>(m[g].first - begin) : int64_t{-1});
        out.emplace_back(m[g].matched ? static_cast<int64_t>(m[g].second - begin) : int64_t{-1});
    }
    return makeList(std::move(out));
}

// One search of `regex` in text[pos, endpos) (code points of `text`, a std::string of ASCII or
// a std::wstring): mode 0 search, 1 match at pos, 2 fullmatch; notEmptyAtPos: no empty match
// at pos (finditer after an empty match, as CPython).
template <class Text, class Regex>
Value searchIn(const Text& text, const Regex& regex, int64_t pos, int64_t endpos, int64_t mode, bool notEmptyAtPos) {
    using Iterator = typename Text::const_iterator;
    const Iterator begin = text.begin(), first = begin + pos, last = begin + endpos;
    const auto context = pos > 0 ? std::regex_constants::match_prev_avail : std::regex_constants::match_default;
    std::match_results<Iterator> m;
    if (mode == 2) return std::regex_match(first, last, m, regex, context) ? spans(m, begin) : Value();
    if (mode == 1 || notEmptyAtPos) {
        auto at = context | std::regex_constants::match_continuous;
        if (notEmptyAtPos) at |= std::regex_constants::match_not_null;
        if (std::regex_search(first, last, m, regex, at)) return spans(m, begin);
        if (mode == 1 || pos == endpos) return Value();
        return std::regex_search(first + 1, last, m, regex, std::regex_constants::match_prev_avail) ? spans(m, begin) : Value();
    }
    return std::regex_search(first, last, m, regex, context) ? spans(m, begin) : Value();
}

}  // namespace

Value makeRegexModule() {
    auto module = std::make_shared<ModuleObject>();
    module->name = "_regex";
    // check(pattern, flags) -> (groups, {name: index}, flags with the inline ones); ValueError
    // with re.error's message for a pattern it refuses.
    module->attrs["check"] = makeBuiltin("_regex.check", [](Interpreter& in, CallArgs& a) {
        auto c = compiled(in, stringArg(in, a, 0, "pattern"), intArg(in, a, 1, "flags"));
        std::vector<std::pair<int, std::string>> byIndex;  // the dict in the groups' order, as CPython's
        for (const auto& [name, index] : c->pattern.groupIndex) byIndex.emplace_back(index, name);
        std::sort(byIndex.begin(), byIndex.end());
        auto names = std::make_shared<DictObject>();
        for (const auto& [index, name] : byIndex) names->set(Value(name), Value(static_cast<int64_t>(index)));
        return makeTuple({Value(static_cast<int64_t>(c->pattern.groups)), Value(ObjectPtr(names)), Value(c->pattern.flags)});
    });
    // search(pattern, flags, string, pos, endpos, mode, not_empty_at_pos) -> spans or None.
    // mode: 0 search, 1 match (at pos), 2 fullmatch (pos to endpos). not_empty_at_pos: the
    // match may not be an empty one at pos (finditer after an empty match, as CPython).
    module->attrs["search"] = makeBuiltin("_regex.search", [](Interpreter& in, CallArgs& a) {
        auto c = compiled(in, stringArg(in, a, 0, "pattern"), intArg(in, a, 1, "flags"));
        const std::string& text = stringArg(in, a, 2, "string");
        const bool ascii = isAscii(text) && isAscii(c->pattern.ecmascript);
        const std::wstring wide = ascii ? std::wstring() : wideText(text);
        const auto size = static_cast<int64_t>(ascii ? text.size() : wide.size());
        const int64_t endpos = std::clamp<int64_t>(intArg(in, a, 4, "endpos"), 0, size);
        const int64_t pos = std::clamp<int64_t>(intArg(in, a, 3, "pos"), 0, endpos);
        const int64_t mode = intArg(in, a, 5, "mode");
        const bool notEmptyAtPos = a.args.size() > 6 && in.truthy(a.args[6]);
        return ascii ? searchIn(text, c->regex, pos, endpos, mode, notEmptyAtPos) : searchIn(wide, c->wide, pos, endpos, mode, notEmptyAtPos);
    });
    return Value(ObjectPtr(module));
}

}  // namespace fusescope
