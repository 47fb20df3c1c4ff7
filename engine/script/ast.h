#pragma once
// AST of the Fusescope script subset. Nodes mirror Python's `ast` module where the subset
// overlaps, so the tree walks like CPython's.
//
// Dispatch: every expression is an Expr with an ExprKind tag, every statement a Stmt with a
// StmtKind tag; switch on the tag and downcast with `expr.as<BinOp>()` (a checked
// static_cast). Children are owned through std::unique_ptr, so a node's address is stable
// for the life of its Module (FunctionDef pointers can key caches).
//
// Positions: `loc` is the first character (1-based line and column, file name included);
// endLine/endColumn is one past the last character (1-based), so on a single line the node
// covers columns [loc.column, endColumn).

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace fusescope {

// ---------------------------------------------------------------------------- expressions

enum class ExprKind {
    Name,            // x
    Constant,        // 1, 2.5, 'a', True, False, None, ...
    JoinedStr,       // f'a{x}b': literal Constant parts and FormattedValue parts
    FormattedValue,  // {x!r:>10} inside an f-string
    Attribute,       // value.attr
    Subscript,       // value[index]
    Slice,           // lower:upper:step (only as a Subscript index or inside its Tuple)
    Call,            // func(args, keywords)
    BinOp,           // left op right
    UnaryOp,         // op operand
    BoolOp,          // a and b and c / a or b
    Compare,         // a < b <= c (a chain)
    IfExp,           // body if test else orelse
    NamedExpr,       // target := value
    Lambda,          // lambda params: body
    Tuple,           // a, b / (a, b) / ()
    List,            // [a, b]
    Dict,            // {k: v, **m}
    ListComp,        // [elt for ... if ...]
    GeneratorExp,    // (elt for ... if ...)
    DictComp,        // {k: v for ... if ...}
    Set,             // {a, b}
    SetComp,         // {elt for ... if ...}
    Starred,         // *value (call argument, unpacking target, list/tuple element)
    Yield,           // yield value / yield from value (in a generator function's body)
};

// Whether an expression is read, assigned to, or deleted (as in Python's ast.Load/Store/Del).
enum class ExprContext { Load, Store, Del };

struct Expr {
    explicit Expr(ExprKind k) : kind(k) {}
    virtual ~Expr() = default;
    Expr(const Expr&) = delete;
    Expr& operator=(const Expr&) = delete;

    const ExprKind kind;
    SourceLocation loc;  // start
    int endLine = 0, endColumn = 0;

    template <class T> const T& as() const;
    template <class T> T& as();
};
using ExprPtr = std::unique_ptr<Expr>;

// x. ctx tells loads from assignment/del targets.
struct Name : Expr {
    static constexpr ExprKind kKind = ExprKind::Name;
    Name() : Expr(kKind) {}
    std::string id;
    ExprContext ctx = ExprContext::Load;
};

enum class ConstantKind { None, Bool, Int, Float, Str, Bytes, Ellipsis };

// A literal; only the field named by `type` is meaningful. Adjacent plain string literals
// are already concatenated.
struct Constant : Expr {
    static constexpr ExprKind kKind = ExprKind::Constant;
    Constant() : Expr(kKind) {}
    ConstantKind type = ConstantKind::None;
    bool boolValue = false;
    int64_t intValue = 0;
    double floatValue = 0.0;
    std::string strValue;  // Str: UTF-8 text; Bytes: the bytes
};

// An f-string (or an implicit concatenation containing one): the values are Constant Str
// parts and FormattedValue parts, in order; adjacent literal parts are merged.
struct JoinedStr : Expr {
    static constexpr ExprKind kKind = ExprKind::JoinedStr;
    JoinedStr() : Expr(kKind) {}
    std::vector<ExprPtr> values;
};

// {value!conversion:formatSpec}. conversion is 0 (none), 'r', 's' or 'a'; formatSpec is a
// JoinedStr (it may itself contain {fields}) or null. `{x=}` yields a literal "x=" part
// followed by a FormattedValue with conversion 'r' (as Python does).
struct FormattedValue : Expr {
    static constexpr ExprKind kKind = ExprKind::FormattedValue;
    FormattedValue() : Expr(kKind) {}
    ExprPtr value;
    char conversion = 0;
    ExprPtr formatSpec;
};

// value.attr. attrLoc is where the attribute name starts.
struct Attribute : Expr {
    static constexpr ExprKind kKind = ExprKind::Attribute;
    Attribute() : Expr(kKind) {}
    ExprPtr value;
    std::string attr;
    SourceLocation attrLoc;
    ExprContext ctx = ExprContext::Load;
};

// value[index]. x[1:2] has a Slice index; x[0, :, None] has a Tuple index whose elements may
// be Slices; x[...] has an Ellipsis Constant.
struct Subscript : Expr {
    static constexpr ExprKind kKind = ExprKind::Subscript;
    Subscript() : Expr(kKind) {}
    ExprPtr value;
    ExprPtr index;
    ExprContext ctx = ExprContext::Load;
};

// lower:upper:step; each part may be null (x[::2] has only step).
struct Slice : Expr {
    static constexpr ExprKind kKind = ExprKind::Slice;
    Slice() : Expr(kKind) {}
    ExprPtr lower, upper, step;
};

// One keyword argument: name=value, or **value when name is empty.
struct Keyword {
    std::string name;
    ExprPtr value;
    SourceLocation loc;
};

// func(args..., keywords...). Positional *x arguments are Starred entries of args; a lone
// generator argument f(x for x in xs) is a GeneratorExp in args.
struct Call : Expr {
    static constexpr ExprKind kKind = ExprKind::Call;
    Call() : Expr(kKind) {}
    ExprPtr func;
    std::vector<ExprPtr> args;
    std::vector<Keyword> keywords;
};

enum class BinaryOperator { Add, Sub, Mult, MatMult, Div, FloorDiv, Mod, Pow, LShift, RShift,
                            BitOr, BitXor, BitAnd };
// "+", "//", "**", ...
const char* binaryOperatorSymbol(BinaryOperator op);

// left op right. opLoc/opLength locate the operator token (for `~~^~~` markers).
struct BinOp : Expr {
    static constexpr ExprKind kKind = ExprKind::BinOp;
    BinOp() : Expr(kKind) {}
    BinaryOperator op = BinaryOperator::Add;
    ExprPtr left, right;
    SourceLocation opLoc;
    int opLength = 1;
};

enum class UnaryOperator { UAdd, USub, Invert, Not };
const char* unaryOperatorSymbol(UnaryOperator op);  // "+", "-", "~", "not"

// op operand.
struct UnaryOp : Expr {
    static constexpr ExprKind kKind = ExprKind::UnaryOp;
    UnaryOp() : Expr(kKind) {}
    UnaryOperator op = UnaryOperator::USub;
    ExprPtr operand;
};

enum class BoolOperator { And, Or };

// values[0] op values[1] op ...; short-circuits left to right (at least two values).
struct BoolOp : Expr {
    static constexpr ExprKind kKind = ExprKind::BoolOp;
    BoolOp() : Expr(kKind) {}
    BoolOperator op = BoolOperator::And;
    std::vector<ExprPtr> values;
};

enum class CompareOperator { Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn };
const char* compareOperatorSymbol(CompareOperator op);  // "==", "is not", "not in", ...

// left ops[0] comparators[0] ops[1] comparators[1] ...: a < b < c means a<b and b<c, with b
// evaluated once. opLocs[i] locates ops[i].
struct Compare : Expr {
    static constexpr ExprKind kKind = ExprKind::Compare;
    Compare() : Expr(kKind) {}
    ExprPtr left;
    std::vector<CompareOperator> ops;
    std::vector<ExprPtr> comparators;
    std::vector<SourceLocation> opLocs;
};

// body if test else orelse.
struct IfExp : Expr {
    static constexpr ExprKind kKind = ExprKind::IfExp;
    IfExp() : Expr(kKind) {}
    ExprPtr test, body, orelse;
};

// target := value: binds target in the enclosing function's scope (a comprehension's too).
struct NamedExpr : Expr {
    static constexpr ExprKind kKind = ExprKind::NamedExpr;
    NamedExpr() : Expr(kKind) {}
    std::string target;
    ExprPtr value;
};

enum class ParamKind {
    PositionalOnly,  // before a /
    Positional,  // a or a=1 (positional or keyword)
    VarArgs,     // *args
    KeywordOnly, // after * or *args
    VarKeywords, // **kwargs
};

// One parameter of a def or lambda. defaultValue is null when there is none. Annotations
// are parsed and dropped.
struct Param {
    std::string name;
    ParamKind kind = ParamKind::Positional;
    ExprPtr defaultValue;
    SourceLocation loc;
};

// lambda params: body.
struct Lambda : Expr {
    static constexpr ExprKind kKind = ExprKind::Lambda;
    Lambda() : Expr(kKind) {}
    std::vector<Param> params;
    ExprPtr body;
};

// (a, b), a, b, (). Also assignment targets: a, b = ...
struct Tuple : Expr {
    static constexpr ExprKind kKind = ExprKind::Tuple;
    Tuple() : Expr(kKind) {}
    std::vector<ExprPtr> elts;
    ExprContext ctx = ExprContext::Load;
};

// [a, b]. Also an unpacking target: [a, b] = ...
struct List : Expr {
    static constexpr ExprKind kKind = ExprKind::List;
    List() : Expr(kKind) {}
    std::vector<ExprPtr> elts;
    ExprContext ctx = ExprContext::Load;
};

// {k1: v1, **m}: keys[i] is null for a **m entry (values[i] is then m).
struct Dict : Expr {
    static constexpr ExprKind kKind = ExprKind::Dict;
    Dict() : Expr(kKind) {}
    std::vector<ExprPtr> keys;
    std::vector<ExprPtr> values;
};

// for target in iter if ifs[0] if ifs[1] ... (one clause of a comprehension).
struct Comprehension {
    ExprPtr target;
    ExprPtr iter;
    std::vector<ExprPtr> ifs;
};

// [elt for ...]: generators run nested, first outermost.
struct ListComp : Expr {
    static constexpr ExprKind kKind = ExprKind::ListComp;
    ListComp() : Expr(kKind) {}
    ExprPtr elt;
    std::vector<Comprehension> generators;
};

// (elt for ...), also the bare form f(elt for ...).
struct GeneratorExp : Expr {
    static constexpr ExprKind kKind = ExprKind::GeneratorExp;
    GeneratorExp() : Expr(kKind) {}
    ExprPtr elt;
    std::vector<Comprehension> generators;
};

// {key: value for ...}.
struct DictComp : Expr {
    static constexpr ExprKind kKind = ExprKind::DictComp;
    DictComp() : Expr(kKind) {}
    ExprPtr key, value;
    std::vector<Comprehension> generators;
};

// {a, b} (never empty: {} is a Dict).
struct Set : Expr {
    static constexpr ExprKind kKind = ExprKind::Set;
    Set() : Expr(kKind) {}
    std::vector<ExprPtr> elts;
};

// {elt for ... if ...}.
struct SetComp : Expr {
    static constexpr ExprKind kKind = ExprKind::SetComp;
    SetComp() : Expr(kKind) {}
    ExprPtr elt;
    std::vector<Comprehension> generators;
};

// *value: f(*args), [*a, b], a, *rest = ...
struct Starred : Expr {
    static constexpr ExprKind kKind = ExprKind::Starred;
    Starred() : Expr(kKind) {}
    ExprPtr value;
    ExprContext ctx = ExprContext::Load;
};

// yield [value] / yield from value: suspends the generator running the function.
struct Yield : Expr {
    static constexpr ExprKind kKind = ExprKind::Yield;
    Yield() : Expr(kKind) {}
    ExprPtr value;  // null for a bare yield
    bool from = false;
};

// ----------------------------------------------------------------------------- statements

enum class StmtKind {
    Expr,         // an expression evaluated for its effect
    Assign,       // a = b = value
    AugAssign,    // target op= value
    If,           // if/elif/else (elif is a nested If in orelse)
    For,          // for target in iter: body
    While,        // while test: body
    Break,        // break
    Continue,     // continue
    Return,       // return [value]
    Pass,         // pass (also a bare annotation `x: int`)
    FunctionDef,  // [decorators] def name(params): body
    Import,       // import a.b [as c], ...
    ImportFrom,   // from a.b import c [as d], ...
    With,         // with item [as target], ...: body
    Global,       // global a, b
    Nonlocal,     // nonlocal a, b
    Assert,       // assert test[, msg]
    Raise,        // raise [exc [from cause]]
    Delete,       // del a, b[0]
    ClassDef,     // [decorators] class name(bases): body
    Try,          // try: body except ...: handler else: orelse finally: finalbody
    AnnAssign,    // target: annotation [= value]
};

struct Stmt {
    explicit Stmt(StmtKind k) : kind(k) {}
    virtual ~Stmt() = default;
    Stmt(const Stmt&) = delete;
    Stmt& operator=(const Stmt&) = delete;

    const StmtKind kind;
    SourceLocation loc;  // start
    int endLine = 0, endColumn = 0;

    template <class T> const T& as() const;
    template <class T> T& as();
};
using StmtPtr = std::unique_ptr<Stmt>;
using StmtList = std::vector<StmtPtr>;

// An expression statement: f(x).
struct ExprStmt : Stmt {
    static constexpr StmtKind kKind = StmtKind::Expr;
    ExprStmt() : Stmt(kKind) {}
    ExprPtr value;
};

// targets[0] = targets[1] = ... = value; each target is a Name, Attribute, Subscript,
// Tuple or List (Store context). Evaluate value once, assign left to right. An annotated
// assignment `x: int = 1` becomes an Assign (the annotation is dropped).
struct Assign : Stmt {
    static constexpr StmtKind kKind = StmtKind::Assign;
    Assign() : Stmt(kKind) {}
    std::vector<ExprPtr> targets;
    ExprPtr value;
};

// target op= value; target is a Name, Attribute or Subscript. opLoc locates the operator.
struct AugAssign : Stmt {
    static constexpr StmtKind kKind = StmtKind::AugAssign;
    AugAssign() : Stmt(kKind) {}
    ExprPtr target;
    BinaryOperator op = BinaryOperator::Add;
    ExprPtr value;
    SourceLocation opLoc;
};

// if test: body else: orelse (orelse empty when absent; an elif is a lone If in orelse).
struct If : Stmt {
    static constexpr StmtKind kKind = StmtKind::If;
    If() : Stmt(kKind) {}
    ExprPtr test;
    StmtList body;
    StmtList orelse;
};

// for target in iter: body (no else clause in the subset).
struct For : Stmt {
    static constexpr StmtKind kKind = StmtKind::For;
    For() : Stmt(kKind) {}
    ExprPtr target;
    ExprPtr iter;
    StmtList body;
    StmtList orelse;  // else: runs when the loop ends without a break
};

// while test: body, else: orelse.
struct While : Stmt {
    static constexpr StmtKind kKind = StmtKind::While;
    While() : Stmt(kKind) {}
    ExprPtr test;
    StmtList body;
    StmtList orelse;  // runs when the test turns false (not after a break)
};

// break.
struct Break : Stmt {
    static constexpr StmtKind kKind = StmtKind::Break;
    Break() : Stmt(kKind) {}
};

// continue.
struct Continue : Stmt {
    static constexpr StmtKind kKind = StmtKind::Continue;
    Continue() : Stmt(kKind) {}
};

// return [value]; value is null for a bare return.
struct Return : Stmt {
    static constexpr StmtKind kKind = StmtKind::Return;
    Return() : Stmt(kKind) {}
    ExprPtr value;
};

// pass.
struct Pass : Stmt {
    static constexpr StmtKind kKind = StmtKind::Pass;
    Pass() : Stmt(kKind) {}
};

// [@decorators] def name(params): body. decorators[0] is the topmost (applied last).
// loc is the `def` keyword (or the first decorator's @); nameLoc the function name.
struct FunctionDef : Stmt {
    static constexpr StmtKind kKind = StmtKind::FunctionDef;
    FunctionDef() : Stmt(kKind) {}
    std::string name;
    SourceLocation nameLoc;
    std::vector<Param> params;
    std::vector<ExprPtr> decorators;
    StmtList body;
    bool isGenerator = false;  // its body (not a nested def's) has a yield
    // Names a scope nested in it reads (a comprehension, lambda or def): those that are its locals
    // are cells under Python 3.11 (where comprehensions are functions of their own).
    std::set<std::string> nestedReads;
    // Every name it and its nested scopes read: those bound in an enclosing function are its
    // free variables (co_freevars, which Python 3.11 keeps among the frame's locals).
    std::set<std::string> reads;
};

// One imported name: name (dotted for `import a.b`) and asname ("" when absent).
struct Alias {
    std::string name;
    std::string asname;
    SourceLocation loc;
};

// import a.b.c [as x], ...
struct Import : Stmt {
    static constexpr StmtKind kKind = StmtKind::Import;
    Import() : Stmt(kKind) {}
    std::vector<Alias> names;
};

// from [.]*module import name [as x], ... ; level counts leading dots; name "*" for
// `from m import *`.
struct ImportFrom : Stmt {
    static constexpr StmtKind kKind = StmtKind::ImportFrom;
    ImportFrom() : Stmt(kKind) {}
    std::string module;
    std::vector<Alias> names;
    int level = 0;
};

// One context manager: context [as target] (target null when absent).
struct WithItem {
    ExprPtr context;
    ExprPtr target;
};

// with items[0], items[1]: body (entered left to right, exited in reverse).
struct With : Stmt {
    static constexpr StmtKind kKind = StmtKind::With;
    With() : Stmt(kKind) {}
    std::vector<WithItem> items;
    StmtList body;
};

// global a, b.
struct Global : Stmt {
    static constexpr StmtKind kKind = StmtKind::Global;
    Global() : Stmt(kKind) {}
    std::vector<std::string> names;
};

// nonlocal a, b.
struct Nonlocal : Stmt {
    static constexpr StmtKind kKind = StmtKind::Nonlocal;
    Nonlocal() : Stmt(kKind) {}
    std::vector<std::string> names;
};

// assert test[, msg] (msg null when absent).
struct Assert : Stmt {
    static constexpr StmtKind kKind = StmtKind::Assert;
    Assert() : Stmt(kKind) {}
    ExprPtr test;
    ExprPtr msg;
};

// raise [exc [from cause]] (either may be null).
struct Raise : Stmt {
    static constexpr StmtKind kKind = StmtKind::Raise;
    Raise() : Stmt(kKind) {}
    ExprPtr exc;
    ExprPtr cause;
};

// del targets (Del context).
struct Delete : Stmt {
    static constexpr StmtKind kKind = StmtKind::Delete;
    Delete() : Stmt(kKind) {}
    std::vector<ExprPtr> targets;
};

// [@decorators] class name(bases, keywords): body. loc is `class` (or the first decorator's @).
struct ClassDef : Stmt {
    static constexpr StmtKind kKind = StmtKind::ClassDef;
    ClassDef() : Stmt(kKind) {}
    std::string name;
    SourceLocation nameLoc;
    std::vector<ExprPtr> bases;
    std::vector<Keyword> keywords;  // metaclass=... and the like
    std::vector<ExprPtr> decorators;
    StmtList body;
};

// except [type [as name]]: body (type null for a bare except, name "" when absent).
struct ExceptHandler {
    ExprPtr type;
    std::string name;
    SourceLocation loc;
    StmtList body;
};

// try: body, handlers, else: orelse, finally: finalbody (each list may be empty, not all).
struct Try : Stmt {
    static constexpr StmtKind kKind = StmtKind::Try;
    Try() : Stmt(kKind) {}
    StmtList body;
    std::vector<ExceptHandler> handlers;
    StmtList orelse;
    StmtList finalbody;
};

// target: annotation [= value]. The annotation is never evaluated (as under `from __future__
// import annotations`): a class body records its source text in __annotations__, which
// dataclasses read; elsewhere it is ignored.
struct AnnAssign : Stmt {
    static constexpr StmtKind kKind = StmtKind::AnnAssign;
    AnnAssign() : Stmt(kKind) {}
    ExprPtr target;
    ExprPtr annotation;
    ExprPtr value;  // null for a bare annotation
};

// ------------------------------------------------------------------------------- module

// A parsed script: its statements plus its source text, kept so messages can quote lines.
struct Module {
    std::string fileName;
    StmtList body;
    std::vector<std::string> lines;  // source lines without their line ends

    // Text of a 1-based line ("" when out of range).
    std::string sourceLine(int line) const;
    // Lines [firstLine, lastLine] joined with '\n' (a multi-line statement's full text).
    std::string sourceText(int firstLine, int lastLine) const;
    // The full text of a statement (all the lines it spans).
    std::string sourceText(const Stmt& stmt) const { return sourceText(stmt.loc.line, stmt.endLine); }
    // The exact text of an expression.
    std::string sourceText(const Expr& expr) const;
};

// Compact deterministic s-expression dumps, used by tests and debugging. dumpAst writes
// one top-level statement per line, e.g. `x = a + 1.0` dumps as (Assign x (+ a 1.0)).
// Names are bare, strings quoted, absent children `_`; (. v attr) is an attribute,
// (Sub v i) a subscript, (u- x) a unary minus, (kw name v) / (** v) call keywords.
// A def's or class's docstring: its body's first statement when that is a string literal.
std::optional<std::string> docstring(const StmtList& body);

std::string dumpAst(const Module& module);
std::string dumpExpr(const Expr& expr);
std::string dumpStmt(const Stmt& stmt);

// ------------------------------------------------------------------------ implementation

template <class T> const T& Expr::as() const {
    if (kind != T::kKind) throw Error("internal error: wrong expression node kind");
    return static_cast<const T&>(*this);
}
template <class T> T& Expr::as() {
    if (kind != T::kKind) throw Error("internal error: wrong expression node kind");
    return static_cast<T&>(*this);
}
template <class T> const T& Stmt::as() const {
    if (kind != T::kKind) throw Error("internal error: wrong statement node kind");
    return static_cast<const T&>(*this);
}
template <class T> T& Stmt::as() {
    if (kind != T::kKind) throw Error("internal error: wrong statement node kind");
    return static_cast<T&>(*this);
}

}  // namespace fusescope
