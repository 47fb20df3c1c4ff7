#include "capture/shape_guard_function.h"

#include <functional>
#include <map>

#include <fmt/format.h>

#include "core/error.h"
#include "core/tensor_format.h"
#include "script/ast.h"
#include "script/parser.h"

namespace fusescope {

namespace {

// Python's ast.unparse precedence levels, for the nodes guard code has.
enum Precedence { And = 2, Not = 3, Cmp = 5, Arith = 11, Term = 12, Factor = 13, Atom = 16 };

int precedenceOf(BinaryOperator op) {
    return op == BinaryOperator::Add || op == BinaryOperator::Sub ? Arith : Term;
}

// ast.unparse of one node, its children written by `child` (which may replace a repeated
// subexpression by its variable): parenthesised where Python's precedence needs it.
class Unparser {
public:
    using Child = std::function<std::string(const Expr&)>;

    static std::string text(const Expr& e, const Child& child, int needed = 0) {
        std::string s;
        int own = Atom;
        switch (e.kind) {
        case ExprKind::Name: s = e.as<Name>().id; break;
        case ExprKind::Constant: {
            const auto& c = e.as<Constant>();
            s = c.type == ConstantKind::Str     ? "'" + c.strValue + "'"
                : c.type == ConstantKind::Float ? formatPythonFloat(c.floatValue)
                                                : std::to_string(c.intValue);
            break;
        }
        case ExprKind::Attribute: s = child(*e.as<Attribute>().value) + "." + e.as<Attribute>().attr; break;
        case ExprKind::Subscript: {  // the parts in order: naming them (CSE) is a side effect
            s = child(*e.as<Subscript>().value);
            s += "[" + child(*e.as<Subscript>().index) + "]";
            break;
        }
        case ExprKind::Call: {
            const auto& call = e.as<Call>();
            s = child(*call.func) + "(";
            for (size_t i = 0; i < call.args.size(); ++i) s += (i ? ", " : "") + child(*call.args[i]);
            s += ")";
            break;
        }
        case ExprKind::UnaryOp: {
            const auto& u = e.as<UnaryOp>();
            own = u.op == UnaryOperator::Not ? Not : Factor;
            s = (u.op == UnaryOperator::Not ? "not " : "-") + operand(*u.operand, own, child);
            break;
        }
        case ExprKind::BinOp: {
            const auto& b = e.as<BinOp>();
            own = precedenceOf(b.op);
            s = operand(*b.left, own, child);
            s += std::string(" ") + binaryOperatorSymbol(b.op) + " " + operand(*b.right, own + 1, child);
            break;
        }
        case ExprKind::BoolOp: {
            const auto& b = e.as<BoolOp>();
            own = And;
            for (size_t i = 0; i < b.values.size(); ++i) s += (i ? " and " : "") + operand(*b.values[i], And + 1, child);
            break;
        }
        case ExprKind::Compare: {
            const auto& c = e.as<Compare>();
            own = Cmp;
            s = operand(*c.left, Cmp + 1, child);
            for (size_t i = 0; i < c.ops.size(); ++i)
                s += std::string(" ") + compareOperatorSymbol(c.ops[i]) + " " + operand(*c.comparators[i], Cmp + 1, child);
            break;
        }
        default: throw Error("shape guard code has an unexpected expression");
        }
        return own < needed ? "(" + s + ")" : s;
    }

private:
    // An operand needing precedence `needed`: an atom (a name, a variable) never needs parentheses.
    static std::string operand(const Expr& e, int needed, const Child& child) {
        const bool compound = e.kind == ExprKind::BinOp || e.kind == ExprKind::Compare || e.kind == ExprKind::UnaryOp ||
                              e.kind == ExprKind::BoolOp;
        return compound ? text(e, child, needed) : child(e);
    }
};

bool counted(const Expr& e) { return e.kind == ExprKind::Attribute || e.kind == ExprKind::Call || e.kind == ExprKind::Subscript; }

std::string plain(const Expr& e) {
    return Unparser::text(e, [](const Expr& c) { return plain(c); });
}

void forEachChild(const Expr& e, const std::function<void(const Expr&)>& visit) {
    switch (e.kind) {
    case ExprKind::Attribute: visit(*e.as<Attribute>().value); break;
    case ExprKind::Subscript: visit(*e.as<Subscript>().value), visit(*e.as<Subscript>().index); break;
    case ExprKind::Call:
        visit(*e.as<Call>().func);
        for (const auto& arg : e.as<Call>().args) visit(*arg);
        break;
    case ExprKind::UnaryOp: visit(*e.as<UnaryOp>().operand); break;
    case ExprKind::BinOp: visit(*e.as<BinOp>().left), visit(*e.as<BinOp>().right); break;
    case ExprKind::BoolOp:
        for (const auto& v : e.as<BoolOp>().values) visit(*v);
        break;
    case ExprKind::Compare:
        visit(*e.as<Compare>().left);
        for (const auto& c : e.as<Compare>().comparators) visit(*c);
        break;
    default: break;
    }
}

// Dynamo's PyExprCSEPass: an attribute, call or subscript used more than once over all the
// guards is assigned to a variable where it is first needed, its own parts named first.
class CommonSubexpressions {
public:
    void count(const Expr& e) {
        if (counted(e)) ++uses_[plain(e)];
        forEachChild(e, [this](const Expr& c) { count(c); });
    }

    // The code of `e` with repeated parts named, and the assignments it needs first.
    std::string replace(const Expr& e, std::vector<std::string>& preface) {
        if (counted(e)) {
            const std::string key = plain(e);
            if (uses_[key] > 1) {
                auto named = names_.find(key);
                if (named != names_.end()) return named->second;
                std::string value = Unparser::text(e, [&](const Expr& c) { return replace(c, preface); });
                std::string name = fmt::format("_var{}", names_.size());
                preface.push_back(name + " = " + value);
                names_[key] = name;
                return name;
            }
        }
        return Unparser::text(e, [&](const Expr& c) { return replace(c, preface); });
    }

private:
    std::map<std::string, int> uses_;
    std::map<std::string, std::string> names_;
};

}  // namespace

std::string shapeGuardFunction(const std::vector<std::string>& guardCodes) {
    if (guardCodes.empty()) return "";
    std::vector<ExprPtr> parsed;
    CommonSubexpressions cse;
    for (const std::string& code : guardCodes) {
        try {
            parsed.push_back(parseExpression(code, "<guard>"));
            cse.count(*parsed.back());
        } catch (const Error&) {
            parsed.push_back(nullptr);
        }
    }
    std::string body;
    for (size_t i = 0; i < guardCodes.size(); ++i) {
        std::vector<std::string> preface;
        std::string code = parsed[i] ? cse.replace(*parsed[i], preface) : guardCodes[i];
        for (const std::string& line : preface) body += "        " + line + "\n";
        body += fmt::format("        if not ({}):\n            return False\n", code);
    }
    // The closure's names, as Dynamo passes them (SYMPY_INTERP's, then its guard helpers').
    return "Python shape guard function:\n"
           "def ___make_guard_fn(IsNonOverlappingAndDenseIndicator, cast_symbool_to_symint_guardless, math, torch, ___check_type_id, "
           "___check_obj_id, ___odict_getitem, ___key_to_id, ___dict_version, ___dict_contains, ___tuple_iterator_len, "
           "___normalize_count_iter, ___normalize_range_iter, ___tuple_iterator_getitem, ___list_reverseiterator_len, "
           "___list_reverseiterator_backing_list, ___set_getitem, ___dataclass_fields, ___namedtuple_fields, "
           "___get_torch_function_mode_stack_at, ___get_current_stream, ___cow_tensor_matches, __math_isnan, __numpy_isnan, inf, "
           "__load_module, utils_device, device, ___from_numpy, ___unwrap_async_collective_tensor, ___as_tensor, inspect):\n"
           "    def guard(L):\n" +
           body + "        return True\n    return guard\n";
}

}  // namespace fusescope
