#include "capture/first_call.h"

#include <algorithm>
#include <regex>

#include <fmt/format.h>

#include "script/ast.h"
#include "script/interpreter.h"

namespace fusescope {

FirstCall firstCallOf(const Interpreter& interp, const FunctionObject& fn, bool boundSelf) {
    FirstCall first;
    const auto& frames = interp.stack();
    // The innermost frame of the user's own files: a module's call passes through the
    // library's nn.Module.__call__ first.
    auto user = std::find_if(frames.rbegin(), frames.rend(), [&](const Frame& f) { return interp.isScriptFile(f.where.file); });
    if (user == frames.rend() || !user->pending || user->pending->kind != ExprKind::Call || !fn.def) return first;
    first.statement = user->where;
    const std::string line = interp.sourceLine(user->where);
    first.indent = line.substr(0, line.find_first_not_of(" \t"));
    const Call& call = user->pending->as<Call>();
    const auto& params = fn.def->params;
    size_t offset = boundSelf ? 1 : 0;
    for (size_t i = 0; i < call.args.size() && i + offset < params.size(); ++i) {
        if (call.args[i]->kind == ExprKind::Starred) break;  // *args: positions unknown from here on
        const Param& param = params[i + offset];
        if (param.kind == ParamKind::VarArgs) {  // the rest are its items: args[0] (a compiled module's wrapper frame)
            for (size_t j = i; j < call.args.size() && call.args[j]->kind != ExprKind::Starred; ++j)
                if (call.args[j]->kind == ExprKind::Name)
                    first.variables[fmt::format("{}[{}]", param.name, j - i)] = call.args[j]->as<Name>().id;
            break;
        }
        if (param.kind != ParamKind::Positional && param.kind != ParamKind::PositionalOnly) break;
        if (call.args[i]->kind == ExprKind::Name) first.variables[param.name] = call.args[i]->as<Name>().id;
    }
    for (const Keyword& k : call.keywords)
        if (!k.name.empty() && k.value->kind == ExprKind::Name) first.variables[k.name] = k.value->as<Name>().id;
    return first;
}

SourceInsert markDynamicEdit(const FirstCall& call, const std::string& reason) {
    static const std::regex sizeMismatch(R"(tensor '([A-Za-z_]\w*(?:\[\d+\])?)' size mismatch at index (\d+))");
    std::smatch match;
    if (!call.statement.known() || !std::regex_search(reason, match, sizeMismatch)) return {};
    auto variable = call.variables.find(match[1].str());
    if (variable == call.variables.end()) return {};
    return SourceInsert{call.statement.file, call.statement.line,
                        fmt::format("{}torch._dynamo.mark_dynamic({}, {})\n", call.indent, variable->second, match[2].str())};
}

}  // namespace fusescope
