#include "torch_trace/fx_readable_graph.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string_view>

#include "core/read_fields.h"
#include "torch_trace/line_scan.h"

namespace fusescope {

namespace {

using scan::npos;

// The names an expression mentions (`[A-Za-z_][A-Za-z_0-9]*`), in order.
std::vector<std::string> identifiersIn(std::string_view expr) {
    std::vector<std::string> names;
    for (size_t i = 0; i < expr.size();) {
        if (scan::isWord(expr[i]) && !scan::isDigit(expr[i])) {
            size_t end = scan::wordEnd(expr, i);
            names.emplace_back(expr.substr(i, end - i));
            i = end;
        } else {
            ++i;
        }
    }
    return names;
}

// The callee of `callee(...)` (`[A-Za-z_][\w.]*` before a parenthesis), or empty.
std::string_view calleeOf(std::string_view expr) {
    if (expr.empty() || !scan::isWord(expr[0]) || scan::isDigit(expr[0])) return {};
    size_t end = scan::runEnd(expr, 0, [](char c) { return scan::isWord(c) || c == '.'; });
    return end < expr.size() && expr[end] == '(' ? expr.substr(0, end) : std::string_view();
}

// The operator of `a OP b` (two words around one of Python's binary or comparison
// operators), or empty.
std::string_view binaryOperatorOf(std::string_view expr) {
    size_t at = scan::wordEnd(expr, 0);
    if (at == npos || (at = scan::literalEnd(expr, at, " ")) == npos) return {};
    size_t opEnd = npos;
    for (std::string_view op : {"==", "!=", "<=", ">=", "//", "**"})
        if ((opEnd = scan::literalEnd(expr, at, op)) != npos) break;
    if (opEnd == npos && at < expr.size() && std::string_view("-+*/@%<>&|^").find(expr[at]) != npos) opEnd = at + 1;
    size_t rest = opEnd == npos ? npos : scan::literalEnd(expr, opEnd, " ");
    if (rest == npos || scan::wordEnd(expr, rest) != expr.size()) return {};
    return expr.substr(at, opEnd - at);
}

// What a call line calls: "torch.nn.functional.layer_norm" for a function, the method's name
// ("sin") for `x.sin()`, the operator ("+", ">") for `a + b` and `a > b`.
std::pair<std::string, std::string> opAndTarget(const std::string& expr, const std::set<std::string>& nodes) {
    if (std::string_view callee = calleeOf(expr); !callee.empty()) {
        size_t dot = callee.find('.');
        if (dot != npos && nodes.count(std::string(callee.substr(0, dot)))) return {"call_method", std::string(callee.substr(dot + 1))};
        return {"call_function", std::string(callee)};
    }
    if (std::string_view op = binaryOperatorOf(expr); !op.empty()) return {"call_function", std::string(op)};
    return {"call_function", expr};
}

// The body of an indented line (after `\s+`), or npos when the line is not indented.
size_t indentedBody(std::string_view line) {
    size_t at = scan::spacesEnd(line, 0);
    return at > 0 ? at : npos;
}

// The `name: "meta"` parameters of a `def forward(...)` line.
std::map<std::string, std::string> parametersOf(std::string_view line) {
    std::map<std::string, std::string> parameters;
    for (size_t colon = line.find(": \""); colon != npos; colon = line.find(": \"", colon + 1)) {
        size_t name = colon;
        while (name > 0 && scan::isWord(line[name - 1])) --name;
        size_t close = line.find('"', colon + 3);
        if (name == colon || close == npos) continue;
        parameters[std::string(line.substr(name, colon - name))] = line.substr(colon + 3, close - colon - 3);
        colon = close;
    }
    return parameters;
}

struct Provenance {
    std::string file, function, source;
    int line = 0;
};

// `# File: FILE:LINE in FUNCTION, code: SOURCE` (FUNCTION a word or `<word>`); FILE is the
// longest that leaves the rest well-formed, as the file name may hold colons. An AOT backward
// graph says `# Backward of forward node: File: ...` for the forward line a node differentiates.
std::optional<Provenance> provenanceOf(std::string_view line) {
    size_t at = indentedBody(line);
    if (at == npos) return std::nullopt;
    if (size_t backward = scan::literalEnd(line, at, "# Backward of forward node: File: "); backward != npos) at = backward;
    else if ((at = scan::literalEnd(line, at, "# File: ")) == npos) return std::nullopt;
    for (size_t colon = line.rfind(':'); colon != npos && colon >= at; colon = colon ? line.rfind(':', colon - 1) : npos) {
        size_t digits = scan::digitsEnd(line, colon + 1), function = digits == npos ? npos : scan::literalEnd(line, digits, " in ");
        if (function == npos) continue;
        bool bracketed = function < line.size() && line[function] == '<';
        size_t functionEnd = scan::wordEnd(line, function + bracketed);
        if (functionEnd != npos && bracketed) functionEnd = scan::literalEnd(line, functionEnd, ">");
        size_t code = functionEnd == npos ? npos : scan::literalEnd(line, functionEnd, ", code: ");
        if (code == npos) continue;
        return Provenance{std::string(line.substr(at, colon - at)), std::string(line.substr(function, functionEnd - function)),
                          std::string(line.substr(code)), intOfDigits(std::string(line.substr(colon + 1, digits - colon - 1)))};
    }
    return std::nullopt;
}

// `# No stacktrace found for following nodes`: the nodes below come from no source line.
bool endsProvenance(std::string_view line) {
    size_t at = indentedBody(line);
    return at != npos && scan::literalEnd(line, at, "# No stacktrace found") != npos;
}

// A joint graph declares its flattened inputs in its body: `NAME: "META"  # PlainAOTInput(idx=0)`.
std::optional<std::pair<std::string, std::string>> declarationOf(std::string_view line) {
    size_t at = indentedBody(line), nameEnd = at == npos ? npos : scan::wordEnd(line, at);
    size_t meta = nameEnd == npos ? npos : scan::literalEnd(line, nameEnd, ": \"");
    size_t metaEnd = meta == npos ? npos : line.find('"', meta);
    if (metaEnd == npos) return std::nullopt;
    size_t rest = scan::spacesEnd(line, metaEnd + 1);
    if (rest != line.size() && line[rest] != '#') return std::nullopt;
    return std::pair{std::string(line.substr(at, nameEnd - at)), std::string(line.substr(meta, metaEnd - meta))};
}

// `NAME = PARAMETER`: a placeholder's alias.
std::optional<std::pair<std::string, std::string>> aliasOf(std::string_view line) {
    size_t at = indentedBody(line), nameEnd = at == npos ? npos : scan::wordEnd(line, at);
    size_t value = nameEnd == npos ? npos : scan::literalEnd(line, nameEnd, " = ");
    if (value == npos || scan::wordEnd(line, value) != line.size()) return std::nullopt;
    return std::pair{std::string(line.substr(at, nameEnd - at)), std::string(line.substr(value))};
}

struct NodeLine {
    std::string name, meta, expr;
};

// `NAME: "META" = EXPR` with an optional `;  DELETIONS` tail (the first two-space `;`).
std::optional<NodeLine> nodeLineOf(std::string_view line) {
    size_t at = indentedBody(line), nameEnd = at == npos ? npos : scan::wordEnd(line, at);
    size_t meta = nameEnd == npos ? npos : scan::literalEnd(line, nameEnd, ": \"");
    size_t metaEnd = meta == npos ? npos : line.find('"', meta);
    size_t expr = metaEnd == npos ? npos : scan::literalEnd(line, metaEnd, "\" = ");
    if (expr == npos) return std::nullopt;
    size_t exprEnd = std::min(line.find(";  ", expr), line.size());
    return NodeLine{std::string(line.substr(at, nameEnd - at)), std::string(line.substr(meta, metaEnd - meta)),
                    std::string(line.substr(expr, exprEnd - expr))};
}

// `return VALUES`: what follows the keyword.
std::optional<std::string_view> returnedBy(std::string_view line) {
    size_t at = indentedBody(line);
    if (at == npos || (at = scan::literalEnd(line, at, "return ")) == npos) return std::nullopt;
    return line.substr(at);
}

// A line without its `# comment` (PyTorch notes each AOT input and output so).
std::string_view withoutComment(std::string_view line) { return line.substr(0, line.find('#')); }

}  // namespace

nlohmann::json graphJsonFromReadable(const std::string& readable) {
    nlohmann::json nodes = nlohmann::json::array(), outputs = nlohmann::json::array();
    std::map<std::string, std::string> parameters;  // forward's parameter -> its meta
    std::set<std::string> names;
    auto addPlaceholder = [&](const std::string& name, const std::string& parameter) {
        names.insert(name);
        nodes.push_back({{"name", name}, {"op", "placeholder"}, {"target", parameter}, {"code", parameter},
                         {"inputs", nlohmann::json::array()}, {"meta", {parameters[parameter]}}, {"file", ""}, {"line", 0}});
    };
    Provenance where;
    bool inSignature = false, inReturn = false;  // `def forward(` and `return (` may span lines
    std::istringstream in(readable);
    for (std::string text; std::getline(in, text);) {
        std::string_view code = withoutComment(text);
        size_t body = scan::spacesEnd(code, 0);
        if (inReturn && (scan::literalEnd(code, body, "class ") != npos || scan::literalEnd(code, body, "def ") != npos))
            inReturn = false;  // a submodule's graph follows the forward that calls it
        if (inReturn) {
            for (const auto& id : identifiersIn(code))
                if (names.count(id)) outputs.push_back(id);
            continue;
        }
        if (text.find("def forward(") != npos) inSignature = true;
        if (inSignature) {
            for (auto& [name, meta] : parametersOf(code)) parameters[name] = std::move(meta);
            std::string_view end = code.substr(0, code.find_last_not_of(" \t") + 1);
            inSignature = !end.ends_with("):");
        } else if (auto provenance = provenanceOf(text)) {
            where = std::move(*provenance);
        } else if (endsProvenance(text)) {
            where = {};
        } else if (auto alias = aliasOf(text); alias && parameters.count(alias->second)) {
            addPlaceholder(alias->first, alias->second);
        } else if (auto node = nodeLineOf(text)) {
            nlohmann::json inputs = nlohmann::json::array();
            std::set<std::string> seen;
            for (const auto& id : identifiersIn(node->expr)) {
                // AOT graphs use their parameters as they are, with no `name = PARAMETER` line.
                if (!names.count(id) && parameters.count(id)) addPlaceholder(id, id);
                if (names.count(id) && seen.insert(id).second) inputs.push_back(id);
            }
            auto [op, target] = opAndTarget(node->expr, names);
            names.insert(node->name);
            nodes.push_back({{"name", node->name}, {"op", op}, {"target", target}, {"code", node->expr}, {"inputs", inputs},
                             {"meta", {node->meta}}, {"file", where.file}, {"line", where.line}, {"source", where.source},
                             {"stack", nlohmann::json::array({{{"file", where.file}, {"line", where.line}, {"function", where.function}}})}});
        } else if (auto declared = declarationOf(text)) {
            parameters[declared->first] = declared->second;
        } else if (auto returned = returnedBy(code)) {
            for (const auto& id : identifiersIn(*returned)) {
                if (!names.count(id) && parameters.count(id)) addPlaceholder(id, id);
                if (names.count(id)) outputs.push_back(id);
            }
            // `return (` / `return pytree.tree_unflatten([` go on over the lines below.
            std::string_view rest = returned->substr(0, returned->find_last_not_of(" \t") + 1);
            inReturn = rest.ends_with("(") || rest.ends_with("[");
        }
    }
    return {{"nodes", nodes}, {"outputs", outputs}};
}

}  // namespace fusescope
