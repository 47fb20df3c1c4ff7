#include "torch_trace/fx_readable_graph.h"

#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "core/read_fields.h"

namespace fusescope {

namespace {

// The names an expression mentions, in order, each once.
std::vector<std::string> identifiersIn(const std::string& expr) {
    static const std::regex identifier(R"([A-Za-z_][A-Za-z_0-9]*)");
    std::vector<std::string> names;
    for (std::sregex_iterator it(expr.begin(), expr.end(), identifier), end; it != end; ++it) names.push_back(it->str());
    return names;
}

// What a call line calls: "torch.nn.functional.layer_norm" for a function, the method's name
// ("sin") for `x.sin()`, the operator ("+", ">") for `a + b` and `a > b`.
std::pair<std::string, std::string> opAndTarget(const std::string& expr, const std::set<std::string>& nodes) {
    static const std::regex call(R"(^([A-Za-z_][\w.]*)\()");
    static const std::regex binary(R"(^\w+ (==|!=|<=|>=|//|\*\*|[-+*/@%<>&|^]) \w+$)");
    std::smatch m;
    if (std::regex_search(expr, m, call)) {
        std::string callee = m[1].str();
        size_t dot = callee.find('.');
        if (dot != std::string::npos && nodes.count(callee.substr(0, dot))) return {"call_method", callee.substr(dot + 1)};
        return {"call_function", callee};
    }
    if (std::regex_match(expr, m, binary)) return {"call_function", m[1].str()};
    return {"call_function", expr};
}

}  // namespace

nlohmann::json graphJsonFromReadable(const std::string& readable) {
    static const std::regex parameter(R"re((\w+): "([^"]*)")re");
    static const std::regex alias(R"(^\s+(\w+) = (\w+)$)");
    static const std::regex node(R"re(^\s+(\w+): "([^"]*)" = (.*?)(;  .*)?$)re");
    static const std::regex provenance(R"(^\s+# File: (.*):(\d+) in (\w+|<\w+>), code: (.*)$)");
    static const std::regex output(R"(^\s+return (.*)$)");
    nlohmann::json nodes = nlohmann::json::array(), outputs = nlohmann::json::array();
    std::map<std::string, std::string> parameters;  // forward's parameter -> its meta
    std::set<std::string> names;
    std::string file, function, source;
    int line = 0;
    std::istringstream in(readable);
    for (std::string text; std::getline(in, text);) {
        std::smatch m;
        if (text.find("def forward(") != std::string::npos) {
            for (std::sregex_iterator it(text.begin(), text.end(), parameter), end; it != end; ++it) parameters[(*it)[1]] = (*it)[2];
        } else if (std::regex_match(text, m, provenance)) {
            file = m[1].str(), line = intOfDigits(m[2].str()), function = m[3].str(), source = m[4].str();
        } else if (std::regex_match(text, m, alias) && parameters.count(m[2].str())) {
            names.insert(m[1].str());
            nodes.push_back({{"name", m[1].str()}, {"op", "placeholder"}, {"target", m[2].str()}, {"code", m[2].str()},
                             {"inputs", nlohmann::json::array()}, {"meta", {parameters[m[2].str()]}}, {"file", ""}, {"line", 0}});
        } else if (std::regex_match(text, m, node)) {
            std::string expr = m[3].str();
            nlohmann::json inputs = nlohmann::json::array();
            std::set<std::string> seen;
            for (const auto& id : identifiersIn(expr))
                if (names.count(id) && seen.insert(id).second) inputs.push_back(id);
            auto [op, target] = opAndTarget(expr, names);
            names.insert(m[1].str());
            nodes.push_back({{"name", m[1].str()}, {"op", op}, {"target", target}, {"code", expr}, {"inputs", inputs},
                             {"meta", {m[2].str()}}, {"file", file}, {"line", line}, {"source", source},
                             {"stack", nlohmann::json::array({{{"file", file}, {"line", line}, {"function", function}}})}});
        } else if (std::regex_match(text, m, output)) {
            for (const auto& id : identifiersIn(m[1].str()))
                if (names.count(id)) outputs.push_back(id);
        }
    }
    return {{"nodes", nodes}, {"outputs", outputs}};
}

}  // namespace fusescope
