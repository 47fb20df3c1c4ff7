#include "script/literal_eval.h"

#include "script/parser.h"
#include "script/set_object.h"
#include "script/set_operations.h"

namespace fusescope {

namespace {

[[noreturn]] void malformed(Interpreter& in, const Expr& node) {
    in.fail("ValueError", "malformed node or string on line " + std::to_string(node.loc.line) + ": <ast." +
                              (node.kind == ExprKind::Name ? "Name" : node.kind == ExprKind::Call ? "Call" : "expr") + " object>");
}

bool isNumber(const Value& v) { return (v.isInt() || v.isFloat()) && !v.isBool(); }

Value evaluate(Interpreter& in, const Expr& node) {
    switch (node.kind) {
    case ExprKind::Constant: return constantValue(node.as<Constant>());  // Ellipsis too, as CPython's
    case ExprKind::UnaryOp: {  // + or - of a number only
        const auto& u = node.as<UnaryOp>();
        if (u.op == UnaryOperator::UAdd || u.op == UnaryOperator::USub) {
            Value operand = evaluate(in, *u.operand);
            if (isNumber(operand) && u.operand->kind == ExprKind::Constant) {
                if (u.op == UnaryOperator::UAdd) return operand;
                return operand.isInt() ? Value(-operand.asInt()) : Value(-operand.asFloat());
            }
        }
        malformed(in, node);
    }
    case ExprKind::Tuple:
    case ExprKind::List:
    case ExprKind::Set: {
        const auto& elts = node.kind == ExprKind::Tuple ? node.as<Tuple>().elts
                           : node.kind == ExprKind::List ? node.as<List>().elts
                                                         : node.as<Set>().elts;
        ValueList items;
        for (const auto& e : elts) items.push_back(evaluate(in, *e));
        if (node.kind == ExprKind::Tuple) return makeTuple(std::move(items));
        if (node.kind == ExprKind::List) return makeList(std::move(items));
        auto set = std::make_shared<SetObject>();
        for (const Value& item : items) set->add(item, hashOf(in, item));
        return Value(ObjectPtr(set));
    }
    case ExprKind::Dict: {
        const auto& d = node.as<Dict>();
        auto dict = std::make_shared<DictObject>();
        for (size_t i = 0; i < d.keys.size(); ++i) {
            if (!d.keys[i]) in.fail("ValueError", "malformed node or string: None");  // **m: a None key node
            Value key = evaluate(in, *d.keys[i]);
            hashOf(in, key);  // an unhashable key is a TypeError, as CPython's
            dict->set(key, evaluate(in, *d.values[i]));
        }
        return Value(ObjectPtr(dict));
    }
    case ExprKind::Call: {  // set(), the one call: the empty set
        const auto& call = node.as<Call>();
        if (call.func->kind == ExprKind::Name && call.func->as<Name>().id == "set" && call.args.empty() && call.keywords.empty())
            return Value(ObjectPtr(std::make_shared<SetObject>()));
        malformed(in, node);
    }
    default: malformed(in, node);
    }
}

}  // namespace

Value literalEval(Interpreter& in, const std::string& text) {
    const size_t start = text.find_first_not_of(" \t");
    const std::string source = start == std::string::npos ? "" : text.substr(start);
    std::unique_ptr<Module> module = parseScript(source, "<unknown>");
    if (module->body.size() != 1 || module->body[0]->kind != StmtKind::Expr)
        throw ScriptError("SyntaxError", "invalid syntax", SourceLocation{"<unknown>", 1, 1});
    return evaluate(in, *static_cast<const ExprStmt&>(*module->body[0]).value);
}

}  // namespace fusescope
