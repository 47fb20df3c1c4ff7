#include "script/ast.h"

#include <charconv>
#include <cstdio>

#include "script/types/bytes_type.h"

namespace fusescope {

const char* binaryOperatorSymbol(BinaryOperator op) {
    switch (op) {
        case BinaryOperator::Add: return "+";
        case BinaryOperator::Sub: return "-";
        case BinaryOperator::Mult: return "*";
        case BinaryOperator::MatMult: return "@";
        case BinaryOperator::Div: return "/";
        case BinaryOperator::FloorDiv: return "//";
        case BinaryOperator::Mod: return "%";
        case BinaryOperator::Pow: return "**";
        case BinaryOperator::LShift: return "<<";
        case BinaryOperator::RShift: return ">>";
        case BinaryOperator::BitOr: return "|";
        case BinaryOperator::BitXor: return "^";
        case BinaryOperator::BitAnd: return "&";
    }
    return "?";
}

const char* unaryOperatorSymbol(UnaryOperator op) {
    switch (op) {
        case UnaryOperator::UAdd: return "+";
        case UnaryOperator::USub: return "-";
        case UnaryOperator::Invert: return "~";
        case UnaryOperator::Not: return "not";
    }
    return "?";
}

const char* compareOperatorSymbol(CompareOperator op) {
    switch (op) {
        case CompareOperator::Eq: return "==";
        case CompareOperator::NotEq: return "!=";
        case CompareOperator::Lt: return "<";
        case CompareOperator::LtE: return "<=";
        case CompareOperator::Gt: return ">";
        case CompareOperator::GtE: return ">=";
        case CompareOperator::Is: return "is";
        case CompareOperator::IsNot: return "is not";
        case CompareOperator::In: return "in";
        case CompareOperator::NotIn: return "not in";
    }
    return "?";
}

std::optional<std::string> docstring(const StmtList& body) {
    if (body.empty() || body.front()->kind != StmtKind::Expr) return std::nullopt;
    const Expr& first = *body.front()->as<ExprStmt>().value;
    if (first.kind != ExprKind::Constant || first.as<Constant>().type != ConstantKind::Str) return std::nullopt;
    return first.as<Constant>().strValue;
}

std::string Module::sourceLine(int line) const {
    if (line < 1 || line > static_cast<int>(lines.size())) return "";
    return lines[static_cast<size_t>(line - 1)];
}

std::string Module::sourceText(int firstLine, int lastLine) const {
    std::string out;
    for (int l = firstLine; l <= lastLine; ++l) {
        if (l < 1 || l > static_cast<int>(lines.size())) continue;
        if (!out.empty() || l > firstLine) out += '\n';
        out += lines[static_cast<size_t>(l - 1)];
    }
    return out;
}

std::string Module::sourceText(const Expr& expr) const {
    int endLine = expr.endLine ? expr.endLine : expr.loc.line;
    std::string text = sourceText(expr.loc.line, endLine);
    size_t lastLineStart = endLine > expr.loc.line ? text.rfind('\n') + 1 : 0;
    size_t end = expr.endColumn > 0 ? std::min(text.size(), lastLineStart + static_cast<size_t>(expr.endColumn - 1)) : text.size();
    size_t begin = std::min(end, static_cast<size_t>(std::max(expr.loc.column - 1, 0)));
    return text.substr(begin, end - begin);
}

namespace {

// Python-repr-like quoting, so dumps are readable and unambiguous.
std::string quote(const std::string& s) {
    std::string out = "'";
    for (char c : s) {
        unsigned char u = static_cast<unsigned char>(c);
        switch (c) {
            case '\\': out += "\\\\"; break;
            case '\'': out += "\\'"; break;
            case '\n': out += "\\n"; break;
            case '\t': out += "\\t"; break;
            case '\r': out += "\\r"; break;
            default:
                if (u < 0x20 || u == 0x7F) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\x%02x", u);
                    out += buf;
                } else {
                    out += c;
                }
        }
    }
    return out + "'";
}

// Shortest round-trip spelling, always with a '.' or exponent (like Python's repr).
std::string formatFloat(double v) {
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, v);
    std::string s(buf, res.ptr);
    if (s.find_first_of(".eEn") == std::string::npos) s += ".0";  // 'n': inf/nan
    return s;
}

class Dumper {
public:
    std::string out;

    void expr(const Expr* e) {
        if (!e) {
            out += "_";
            return;
        }
        switch (e->kind) {
            case ExprKind::Name: out += e->as<Name>().id; return;
            case ExprKind::Constant: constant(e->as<Constant>()); return;
            case ExprKind::JoinedStr: {
                out += "(FStr";
                for (auto& v : e->as<JoinedStr>().values) sp(), expr(v.get());
                out += ")";
                return;
            }
            case ExprKind::FormattedValue: {
                auto& f = e->as<FormattedValue>();
                out += "(Fmt ";
                expr(f.value.get());
                if (f.conversion) out += std::string(" !") + f.conversion;
                if (f.formatSpec) sp(), expr(f.formatSpec.get());
                out += ")";
                return;
            }
            case ExprKind::Attribute: {
                auto& a = e->as<Attribute>();
                out += "(. ";
                expr(a.value.get());
                out += " " + a.attr + ")";
                return;
            }
            case ExprKind::Subscript: {
                auto& s = e->as<Subscript>();
                out += "(Sub ";
                expr(s.value.get());
                sp();
                expr(s.index.get());
                out += ")";
                return;
            }
            case ExprKind::Slice: {
                auto& s = e->as<Slice>();
                out += "(Slice ";
                expr(s.lower.get());
                sp();
                expr(s.upper.get());
                sp();
                expr(s.step.get());
                out += ")";
                return;
            }
            case ExprKind::Call: {
                auto& c = e->as<Call>();
                out += "(Call ";
                expr(c.func.get());
                for (auto& a : c.args) sp(), expr(a.get());
                for (auto& k : c.keywords) {
                    out += k.name.empty() ? " (** " : " (kw " + k.name + " ";
                    expr(k.value.get());
                    out += ")";
                }
                out += ")";
                return;
            }
            case ExprKind::BinOp: {
                auto& b = e->as<BinOp>();
                out += std::string("(") + binaryOperatorSymbol(b.op) + " ";
                expr(b.left.get());
                sp();
                expr(b.right.get());
                out += ")";
                return;
            }
            case ExprKind::UnaryOp: {
                auto& u = e->as<UnaryOp>();
                out += u.op == UnaryOperator::Not ? "(not " : std::string("(u") + unaryOperatorSymbol(u.op) + " ";
                expr(u.operand.get());
                out += ")";
                return;
            }
            case ExprKind::BoolOp: {
                auto& b = e->as<BoolOp>();
                out += b.op == BoolOperator::And ? "(and" : "(or";
                for (auto& v : b.values) sp(), expr(v.get());
                out += ")";
                return;
            }
            case ExprKind::Compare: {
                auto& c = e->as<Compare>();
                out += "(Compare ";
                expr(c.left.get());
                for (size_t i = 0; i < c.ops.size(); ++i) {
                    std::string sym = compareOperatorSymbol(c.ops[i]);
                    for (char& ch : sym)
                        if (ch == ' ') ch = '_';
                    out += " " + sym + " ";
                    expr(c.comparators[i].get());
                }
                out += ")";
                return;
            }
            case ExprKind::IfExp: {
                auto& i = e->as<IfExp>();
                out += "(IfExp ";
                expr(i.test.get());
                sp();
                expr(i.body.get());
                sp();
                expr(i.orelse.get());
                out += ")";
                return;
            }
            case ExprKind::NamedExpr: {
                auto& n = e->as<NamedExpr>();
                out += "(NamedExpr " + n.target + " ";
                expr(n.value.get());
                out += ")";
                return;
            }
            case ExprKind::Lambda: {
                auto& l = e->as<Lambda>();
                out += "(Lambda ";
                params(l.params);
                sp();
                expr(l.body.get());
                out += ")";
                return;
            }
            case ExprKind::Tuple: seq("Tuple", e->as<Tuple>().elts); return;
            case ExprKind::List: seq("List", e->as<List>().elts); return;
            case ExprKind::Dict: {
                auto& d = e->as<Dict>();
                out += "(Dict";
                for (size_t i = 0; i < d.keys.size(); ++i) {
                    out += d.keys[i] ? " (" : " (** ";
                    if (d.keys[i]) expr(d.keys[i].get()), sp();
                    expr(d.values[i].get());
                    out += ")";
                }
                out += ")";
                return;
            }
            case ExprKind::ListComp: {
                auto& c = e->as<ListComp>();
                out += "(ListComp ";
                expr(c.elt.get());
                generators(c.generators);
                out += ")";
                return;
            }
            case ExprKind::GeneratorExp: {
                auto& c = e->as<GeneratorExp>();
                out += "(GenExp ";
                expr(c.elt.get());
                generators(c.generators);
                out += ")";
                return;
            }
            case ExprKind::DictComp: {
                auto& c = e->as<DictComp>();
                out += "(DictComp ";
                expr(c.key.get());
                sp();
                expr(c.value.get());
                generators(c.generators);
                out += ")";
                return;
            }
            case ExprKind::Set: seq("Set", e->as<Set>().elts); return;
            case ExprKind::SetComp: {
                auto& c = e->as<SetComp>();
                out += "(SetComp ";
                expr(c.elt.get());
                generators(c.generators);
                out += ")";
                return;
            }
            case ExprKind::Yield: {
                auto& y = e->as<Yield>();
                out += y.from ? "(YieldFrom" : "(Yield";
                if (y.value) {
                    sp();
                    expr(y.value.get());
                }
                out += ")";
                return;
            }
            case ExprKind::Starred:
                out += "(* ";
                expr(e->as<Starred>().value.get());
                out += ")";
                return;
        }
    }

    void stmt(const Stmt& s) {
        switch (s.kind) {
            case StmtKind::Expr:
                out += "(Expr ";
                expr(s.as<ExprStmt>().value.get());
                out += ")";
                return;
            case StmtKind::Assign: {
                auto& a = s.as<Assign>();
                out += "(Assign";
                for (auto& t : a.targets) sp(), expr(t.get());
                sp();
                expr(a.value.get());
                out += ")";
                return;
            }
            case StmtKind::AugAssign: {
                auto& a = s.as<AugAssign>();
                out += std::string("(AugAssign ") + binaryOperatorSymbol(a.op) + "= ";
                expr(a.target.get());
                sp();
                expr(a.value.get());
                out += ")";
                return;
            }
            case StmtKind::If: {
                auto& i = s.as<If>();
                out += "(If ";
                expr(i.test.get());
                block("body", i.body);
                if (!i.orelse.empty()) block("else", i.orelse);
                out += ")";
                return;
            }
            case StmtKind::For: {
                auto& f = s.as<For>();
                out += "(For ";
                expr(f.target.get());
                sp();
                expr(f.iter.get());
                block("body", f.body);
                if (!f.orelse.empty()) block("else", f.orelse);
                out += ")";
                return;
            }
            case StmtKind::While: {
                auto& w = s.as<While>();
                out += "(While ";
                expr(w.test.get());
                block("body", w.body);
                if (!w.orelse.empty()) block("else", w.orelse);
                out += ")";
                return;
            }
            case StmtKind::Break: out += "(Break)"; return;
            case StmtKind::Continue: out += "(Continue)"; return;
            case StmtKind::Pass: out += "(Pass)"; return;
            case StmtKind::Return: {
                auto& r = s.as<Return>();
                out += "(Return";
                if (r.value) sp(), expr(r.value.get());
                out += ")";
                return;
            }
            case StmtKind::FunctionDef: {
                auto& f = s.as<FunctionDef>();
                out += "(Def " + f.name + " ";
                params(f.params);
                if (!f.decorators.empty()) {
                    out += " (decorators";
                    for (auto& d : f.decorators) sp(), expr(d.get());
                    out += ")";
                }
                block("body", f.body);
                out += ")";
                return;
            }
            case StmtKind::Import: {
                out += "(Import";
                aliases(s.as<Import>().names);
                out += ")";
                return;
            }
            case StmtKind::ImportFrom: {
                auto& i = s.as<ImportFrom>();
                out += "(ImportFrom " + std::string(static_cast<size_t>(i.level), '.') + i.module;
                aliases(i.names);
                out += ")";
                return;
            }
            case StmtKind::With: {
                auto& w = s.as<With>();
                out += "(With";
                for (auto& item : w.items) {
                    sp();
                    if (item.target) {
                        out += "(as ";
                        expr(item.context.get());
                        sp();
                        expr(item.target.get());
                        out += ")";
                    } else {
                        expr(item.context.get());
                    }
                }
                block("body", w.body);
                out += ")";
                return;
            }
            case StmtKind::Global:
            case StmtKind::Nonlocal: {
                bool g = s.kind == StmtKind::Global;
                out += g ? "(Global" : "(Nonlocal";
                for (auto& n : g ? s.as<Global>().names : s.as<Nonlocal>().names) out += " " + n;
                out += ")";
                return;
            }
            case StmtKind::Assert: {
                auto& a = s.as<Assert>();
                out += "(Assert ";
                expr(a.test.get());
                if (a.msg) sp(), expr(a.msg.get());
                out += ")";
                return;
            }
            case StmtKind::Raise: {
                auto& r = s.as<Raise>();
                out += "(Raise";
                if (r.exc) sp(), expr(r.exc.get());
                if (r.cause) out += " (from ", expr(r.cause.get()), out += ")";
                out += ")";
                return;
            }
            case StmtKind::Delete: {
                out += "(Del";
                for (auto& t : s.as<Delete>().targets) sp(), expr(t.get());
                out += ")";
                return;
            }
            case StmtKind::ClassDef: {
                auto& c = s.as<ClassDef>();
                out += "(Class " + c.name;
                for (auto& b : c.bases) sp(), expr(b.get());
                for (auto& k : c.keywords) out += " (kw " + k.name + " ", expr(k.value.get()), out += ")";
                if (!c.decorators.empty()) {
                    out += " (decorators";
                    for (auto& d : c.decorators) sp(), expr(d.get());
                    out += ")";
                }
                block("body", c.body);
                out += ")";
                return;
            }
            case StmtKind::Try: {
                auto& t = s.as<Try>();
                out += "(Try";
                block("body", t.body);
                for (auto& h : t.handlers) {
                    out += " (except";
                    if (h.type) sp(), expr(h.type.get());
                    if (!h.name.empty()) out += " as " + h.name;
                    block("body", h.body);
                    out += ")";
                }
                if (!t.orelse.empty()) block("else", t.orelse);
                if (!t.finalbody.empty()) block("finally", t.finalbody);
                out += ")";
                return;
            }
            case StmtKind::AnnAssign: {
                auto& a = s.as<AnnAssign>();
                out += "(AnnAssign ";
                expr(a.target.get());
                sp();
                expr(a.annotation.get());
                if (a.value) sp(), expr(a.value.get());
                out += ")";
                return;
            }
        }
    }

private:
    void sp() { out += ' '; }

    void constant(const Constant& c) {
        switch (c.type) {
            case ConstantKind::None: out += "None"; return;
            case ConstantKind::Bool: out += c.boolValue ? "True" : "False"; return;
            case ConstantKind::Int: out += std::to_string(c.intValue); return;
            case ConstantKind::Float: out += formatFloat(c.floatValue); return;
            case ConstantKind::Str: out += quote(c.strValue); return;
            case ConstantKind::Bytes: out += bytesRepr(c.strValue); return;
            case ConstantKind::Ellipsis: out += "..."; return;
        }
    }

    void seq(const char* name, const std::vector<ExprPtr>& elts) {
        out += "(";
        out += name;
        for (auto& e : elts) sp(), expr(e.get());
        out += ")";
    }

    void params(const std::vector<Param>& ps) {
        out += "(";
        bool first = true;
        for (const Param& p : ps) {
            if (!first) sp();
            first = false;
            switch (p.kind) {
                case ParamKind::PositionalOnly: out += "/:"; break;
                case ParamKind::Positional: break;
                case ParamKind::VarArgs: out += "*"; break;
                case ParamKind::KeywordOnly: out += "kw:"; break;
                case ParamKind::VarKeywords: out += "**"; break;
            }
            out += p.name;
            if (p.defaultValue) out += "=", expr(p.defaultValue.get());
        }
        out += ")";
    }

    void generators(const std::vector<Comprehension>& gens) {
        for (const Comprehension& g : gens) {
            out += " (for ";
            expr(g.target.get());
            sp();
            expr(g.iter.get());
            for (auto& c : g.ifs) out += " (if ", expr(c.get()), out += ")";
            out += ")";
        }
    }

    void aliases(const std::vector<Alias>& names) {
        for (const Alias& a : names) {
            if (a.asname.empty()) out += " " + a.name;
            else out += " (" + a.name + " as " + a.asname + ")";
        }
    }

    void block(const char* name, const StmtList& body) {
        out += " (";
        out += name;
        for (auto& s : body) sp(), stmt(*s);
        out += ")";
    }
};

}  // namespace

std::string dumpExpr(const Expr& expr) {
    Dumper d;
    d.expr(&expr);
    return d.out;
}

std::string dumpStmt(const Stmt& stmt) {
    Dumper d;
    d.stmt(stmt);
    return d.out;
}

std::string dumpAst(const Module& module) {
    std::string out;
    for (auto& s : module.body) {
        if (!out.empty()) out += '\n';
        out += dumpStmt(*s);
    }
    return out;
}

}  // namespace fusescope
