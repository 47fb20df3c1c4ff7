// Parser of the script subset: exact AST dumps, precedence, f-strings, positions, errors
// with line:column, nesting limits, and fuzzing (no input may crash or hang).

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "script/parser.h"

using namespace fusescope;

namespace {

std::string dump(const std::string& src) { return dumpAst(*parseScript(src, "t.py")); }

// "Kind line:col message" for a failing parse, "no error" otherwise.
std::string parseErrorOf(const std::string& src) {
    try {
        parseScript(src, "t.py");
    } catch (const ScriptError& e) {
        EXPECT_EQ(e.where().file, "t.py");
        return e.kind() + " " + std::to_string(e.where().line) + ":" + std::to_string(e.where().column) + " " +
               e.what();
    }
    return "no error";
}

const Expr& valueOf(const Module& m, size_t i = 0) {
    const Stmt& s = *m.body.at(i);
    if (s.kind == StmtKind::Assign) return *s.as<Assign>().value;
    return *s.as<ExprStmt>().value;
}

}  // namespace

// ------------------------------------------------------------------ statements

TEST(ScriptParser, Imports) {
    EXPECT_EQ(dump("import torch\nimport torch.nn.functional as F, os.path\n"),
              "(Import torch)\n(Import (torch.nn.functional as F) os.path)");
    EXPECT_EQ(dump("from torch.profiler import record_function\nfrom a.b import x as y, z\n"
                   "from m import (p,\n q as r,)\nfrom . import s\nfrom ..pkg import *\n"),
              "(ImportFrom torch.profiler record_function)\n(ImportFrom a.b (x as y) z)\n"
              "(ImportFrom m p (q as r))\n(ImportFrom . s)\n(ImportFrom ..pkg *)");
}

TEST(ScriptParser, FunctionDefinitions) {
    EXPECT_EQ(dump("def f(a, b=1, *args, c, d=2, **kw):\n    return a + b\n"),
              "(Def f (a b=1 *args kw:c kw:d=2 **kw) (body (Return (+ a b))))");
    EXPECT_EQ(dump("def g(x, *, key=None): pass"), "(Def g (x kw:key=None) (body (Pass)))");
    EXPECT_EQ(dump("def h(x: int, y: 'T' = 2) -> float:\n    return\n"), "(Def h (x y=2) (body (Return)))");
    EXPECT_EQ(dump("def outer():\n    def inner(y):\n        return y\n    return inner\n"),
              "(Def outer () (body (Def inner (y) (body (Return y))) (Return inner)))");
}

TEST(ScriptParser, Decorators) {
    EXPECT_EQ(dump("@torch.compile\ndef f(x):\n    return x\n"),
              "(Def f (x) (decorators (. torch compile)) (body (Return x)))");
    EXPECT_EQ(dump("@torch.compile(backend=\"eager\", dynamic=False)\n@torch._dynamo.optimize(\"eager\")\n"
                   "def f(x):\n    return x\n"),
              "(Def f (x) (decorators (Call (. torch compile) (kw backend 'eager') (kw dynamic False)) "
              "(Call (. (. torch _dynamo) optimize) 'eager')) (body (Return x)))");
}

TEST(ScriptParser, FunctionDefIdentityAndLocations) {
    auto m = parseScript("x = 1\n@dec\ndef f(a):\n    return a\n", "t.py");
    const FunctionDef& f = m->body[1]->as<FunctionDef>();
    EXPECT_EQ(f.loc.line, 2);  // starts at the decorator
    EXPECT_EQ(f.nameLoc.line, 3);
    EXPECT_EQ(f.nameLoc.column, 5);
    EXPECT_EQ(f.endLine, 4);
    EXPECT_EQ(f.params[0].loc.column, 7);
    EXPECT_EQ(m->sourceText(f), "@dec\ndef f(a):\n    return a");
}

// The names scopes nested in a function read (Python 3.11's cells among them): a comprehension's
// but its first iterable (read outside it), a lambda's, and a nested def's, whose own reads stay its.
TEST(ScriptParser, FunctionDefNestedReads) {
    auto m = parseScript("def f(x, y, w):\n"
                         "    z = [x + t for t in y if w]\n"
                         "    g = lambda: z\n"
                         "    def h(a):\n"
                         "        return {k: a for k in x}\n"
                         "    return y + w\n",
                         "t.py");
    const FunctionDef& f = m->body[0]->as<FunctionDef>();
    EXPECT_EQ(f.nestedReads, (std::set<std::string>{"a", "k", "t", "w", "x", "z"}));
    const FunctionDef& h = f.body[2]->as<FunctionDef>();
    EXPECT_EQ(h.nestedReads, (std::set<std::string>{"a", "k"}));
}

TEST(ScriptParser, Assignments) {
    EXPECT_EQ(dump("a = b = 1"), "(Assign a b 1)");
    EXPECT_EQ(dump("a, b = f()"), "(Assign (Tuple a b) (Call f))");
    EXPECT_EQ(dump("(a, b), [c, *d] = x"), "(Assign (Tuple (Tuple a b) (List c (* d))) x)");
    EXPECT_EQ(dump("t.requires_grad = True"), "(Assign (. t requires_grad) True)");
    EXPECT_EQ(dump("x[0] = 1"), "(Assign (Sub x 0) 1)");
    EXPECT_EQ(dump("x = 1, 2,"), "(Assign x (Tuple 1 2))");
    EXPECT_EQ(dump("x: int = 1\ny: float\n"), "(AnnAssign x int 1)\n(AnnAssign y float)");
    auto m = parseScript("a, b.c = d", "t.py");
    const Tuple& t = m->body[0]->as<Assign>().targets[0]->as<Tuple>();
    EXPECT_EQ(t.ctx, ExprContext::Store);
    EXPECT_EQ(t.elts[0]->as<Name>().ctx, ExprContext::Store);
    EXPECT_EQ(t.elts[1]->as<Attribute>().ctx, ExprContext::Store);
    EXPECT_EQ(m->body[0]->as<Assign>().value->as<Name>().ctx, ExprContext::Load);
}

TEST(ScriptParser, AugmentedAssignments) {
    EXPECT_EQ(dump("x += 1\nx -= 1\nx *= 1\nx /= 1\nx //= 1\nx %= 1\nx **= 1\nx @= m\nt.a[0] |= 2\n"),
              "(AugAssign += x 1)\n(AugAssign -= x 1)\n(AugAssign *= x 1)\n(AugAssign /= x 1)\n"
              "(AugAssign //= x 1)\n(AugAssign %= x 1)\n(AugAssign **= x 1)\n(AugAssign @= x m)\n"
              "(AugAssign |= (Sub (. t a) 0) 2)");
    auto m = parseScript("total += x", "t.py");
    EXPECT_EQ(m->body[0]->as<AugAssign>().opLoc.column, 7);
}

TEST(ScriptParser, ControlFlow) {
    EXPECT_EQ(dump("if a:\n    x = 1\nelif b:\n    x = 2\nelse:\n    x = 3\n"),
              "(If a (body (Assign x 1)) (else (If b (body (Assign x 2)) (else (Assign x 3)))))");
    EXPECT_EQ(dump("for y, z in zip(a, b):\n    if y: continue\n    break\n"),
              "(For (Tuple y z) (Call zip a b) (body (If y (body (Continue))) (Break)))");
    EXPECT_EQ(dump("for i in range(3): pass"), "(For i (Call range 3) (body (Pass)))");
    EXPECT_EQ(dump("while n > 0:\n    n -= 1\n"), "(While (Compare n > 0) (body (AugAssign -= n 1)))");
    EXPECT_EQ(dump("x = 1; y = 2;\n"), "(Assign x 1)\n(Assign y 2)");
}

TEST(ScriptParser, WithStatements) {
    EXPECT_EQ(dump("with torch.profiler.record_function(\"step\"):\n    pass\n"),
              "(With (Call (. (. torch profiler) record_function) 'step') (body (Pass)))");
    EXPECT_EQ(dump("with profile(a) as prof, rf('x'), g() as (p, q):\n    f()\n"),
              "(With (as (Call profile a) prof) (Call rf 'x') (as (Call g) (Tuple p q)) (body (Expr (Call f))))");
    EXPECT_EQ(dump("with (open(a) as f,\n      rf('x'),):\n    pass\n"),
              "(With (as (Call open a) f) (Call rf 'x') (body (Pass)))");
    EXPECT_EQ(dump("with (a or b).ctx() as c:\n    pass\n"), "(With (as (Call (. (or a b) ctx)) c) (body (Pass)))");
    EXPECT_EQ(dump("with (lock):\n    pass\n"), "(With lock (body (Pass)))");
}

TEST(ScriptParser, OtherSimpleStatements) {
    EXPECT_EQ(dump("global a, b\nnonlocal c\nassert x\nassert x > 0, 'msg'\nraise\nraise E('m')\n"
                   "raise E from c\ndel x, y[0], z.w\n"),
              "(Global a b)\n(Nonlocal c)\n(Assert x)\n(Assert (Compare x > 0) 'msg')\n(Raise)\n"
              "(Raise (Call E 'm'))\n(Raise E (from c))\n(Del x (Sub y 0) (. z w))");
    EXPECT_EQ(dump("print(x)"), "(Expr (Call print x))");
}

TEST(ScriptParser, RealisticScript) {
    const std::string src =
        "import torch\n"
        "from torch.profiler import profile, record_function, ProfilerActivity\n"
        "\n"
        "@torch.compile(backend=\"inductor\", dynamic=False)\n"
        "def step(x, w, scale=0.5):\n"
        "    y = torch.relu(x @ w) * scale  # fused\n"
        "    if y.sum() > 0:\n"
        "        torch._dynamo.graph_break()\n"
        "    return y.mean(dim=-1, keepdim=True)\n"
        "\n"
        "torch.manual_seed(0)\n"
        "with profile(activities=[ProfilerActivity.CPU]) as prof:\n"
        "    for i in range(3):\n"
        "        with record_function(f\"step_{i}\"):\n"
        "            out = step(torch.randn(4, 8), torch.randn(8, 8))\n"
        "print(f\"{out.shape} {len(prof.events())=}\")\n";
    auto m = parseScript(src, "s.py");
    EXPECT_EQ(dumpAst(*m),
              "(Import torch)\n"
              "(ImportFrom torch.profiler profile record_function ProfilerActivity)\n"
              "(Def step (x w scale=0.5) (decorators (Call (. torch compile) (kw backend 'inductor') (kw dynamic False))) "
              "(body (Assign y (* (Call (. torch relu) (@ x w)) scale)) "
              "(If (Compare (Call (. y sum)) > 0) (body (Expr (Call (. (. torch _dynamo) graph_break))))) "
              "(Return (Call (. y mean) (kw dim (u- 1)) (kw keepdim True)))))\n"
              "(Expr (Call (. torch manual_seed) 0))\n"
              "(With (as (Call profile (kw activities (List (. ProfilerActivity CPU)))) prof) "
              "(body (For i (Call range 3) (body (With (Call record_function (FStr 'step_' (Fmt i))) "
              "(body (Assign out (Call step (Call (. torch randn) 4 8) (Call (. torch randn) 8 8)))))))))\n"
              "(Expr (Call print (FStr (Fmt (. out shape)) ' len(prof.events())=' (Fmt (Call len (Call (. prof events))) !r))))");
    EXPECT_EQ(m->sourceLine(6), "    y = torch.relu(x @ w) * scale  # fused");
    const FunctionDef& f = m->body[2]->as<FunctionDef>();
    EXPECT_EQ(f.loc.line, 4);
    EXPECT_EQ(f.endLine, 9);
    const BinOp& mul = f.body[0]->as<Assign>().value->as<BinOp>();
    EXPECT_EQ(mul.opLoc.column, 27);
    EXPECT_EQ(mul.left->as<Call>().args[0]->as<BinOp>().opLoc.column, 22);
    EXPECT_EQ(m->body[4]->endLine, 15);
}

// ------------------------------------------------------------------ expressions

TEST(ScriptParser, ArithmeticPrecedence) {
    EXPECT_EQ(dump("2 + 3 * 4 ** -1"), "(Expr (+ 2 (* 3 (** 4 (u- 1)))))");
    EXPECT_EQ(dump("-2**2"), "(Expr (u- (** 2 2)))");
    EXPECT_EQ(dump("2**3**2"), "(Expr (** 2 (** 3 2)))");
    EXPECT_EQ(dump("a - b - c"), "(Expr (- (- a b) c))");
    EXPECT_EQ(dump("a / b // c % d @ e"), "(Expr (@ (% (// (/ a b) c) d) e))");
    EXPECT_EQ(dump("(a + b) * c"), "(Expr (* (+ a b) c))");
    EXPECT_EQ(dump("~a + -b * +c"), "(Expr (+ (u~ a) (* (u- b) (u+ c))))");
    EXPECT_EQ(dump("a | b ^ c & d << 1 + e"), "(Expr (| a (^ b (& c (<< d (+ 1 e))))))");
    EXPECT_EQ(dump("a >> b << c"), "(Expr (<< (>> a b) c))");
}

TEST(ScriptParser, BooleanAndComparisonPrecedence) {
    EXPECT_EQ(dump("not a == b"), "(Expr (not (Compare a == b)))");
    EXPECT_EQ(dump("a or b and not c"), "(Expr (or a (and b (not c))))");
    EXPECT_EQ(dump("a and b and c or d"), "(Expr (or (and a b c) d))");
    EXPECT_EQ(dump("a < b < c"), "(Expr (Compare a < b < c))");
    EXPECT_EQ(dump("a is not None and b not in c and d is e and f in g != h"),
              "(Expr (and (Compare a is_not None) (Compare b not_in c) (Compare d is e) (Compare f in g != h)))");
    EXPECT_EQ(dump("a + 1 >= b * 2"), "(Expr (Compare (+ a 1) >= (* b 2)))");
}

TEST(ScriptParser, ConditionalAndLambda) {
    EXPECT_EQ(dump("a if b else c"), "(Expr (IfExp b a c))");
    EXPECT_EQ(dump("a if b else c if d else e"), "(Expr (IfExp b a (IfExp d c e)))");
    EXPECT_EQ(dump("x = a or b if c and d else e"), "(Assign x (IfExp (and c d) (or a b) e))");
    EXPECT_EQ(dump("f = lambda x, y=2, *a, k, **kw: x + y"), "(Assign f (Lambda (x y=2 *a kw:k **kw) (+ x y)))");
    EXPECT_EQ(dump("g = lambda: 0"), "(Assign g (Lambda () 0))");
    EXPECT_EQ(dump("sorted(v, key=lambda p: p[1])"), "(Expr (Call sorted v (kw key (Lambda (p) (Sub p 1)))))");
}

TEST(ScriptParser, Atoms) {
    EXPECT_EQ(dump("x = [1, 2.5, 'a', True, False, None, ...]"), "(Assign x (List 1 2.5 'a' True False None ...))");
    EXPECT_EQ(dump("x = ()\ny = (1,)\nz = (1, 2)\nw = (1)\n"),
              "(Assign x (Tuple))\n(Assign y (Tuple 1))\n(Assign z (Tuple 1 2))\n(Assign w 1)");
    EXPECT_EQ(dump("x = []\ny = [a,]\n"), "(Assign x (List))\n(Assign y (List a))");
    EXPECT_EQ(dump("d = {}\ne = {'a': 1, 'b': [2], **m}\n"), "(Assign d (Dict))\n(Assign e (Dict ('a' 1) ('b' (List 2)) (** m)))");
    EXPECT_EQ(dump("x = 1.\ny = .5\nz = 1e-5\nw = 1_000.0\nh = 0xFF\n"),
              "(Assign x 1.0)\n(Assign y 0.5)\n(Assign z 1e-05)\n(Assign w 1000.0)\n(Assign h 255)");
}

TEST(ScriptParser, StringConcatenation) {
    EXPECT_EQ(dump("x = 'a' \"b\" '''c'''"), "(Assign x 'abc')");
    EXPECT_EQ(dump("x = ('a'\n     'b')"), "(Assign x 'ab')");
    EXPECT_EQ(dump("x = 'it\\'s\\n'"), "(Assign x 'it\\'s\\n')");
    EXPECT_EQ(dump("x = r'\\d+'"), "(Assign x '\\\\d+')");
}

TEST(ScriptParser, AttributesCallsAndSubscripts) {
    EXPECT_EQ(dump("torch.nn.functional.relu(x).sum()"),
              "(Expr (Call (. (Call (. (. (. torch nn) functional) relu) x) sum)))");
    EXPECT_EQ(dump("f(a, *args, k=1, **kw)"), "(Expr (Call f a (* args) (kw k 1) (** kw)))");
    EXPECT_EQ(dump("f(a,)(b)[c]"), "(Expr (Sub (Call (Call f a) b) c))");
    EXPECT_EQ(dump("x[1:3]"), "(Expr (Sub x (Slice 1 3 _)))");
    EXPECT_EQ(dump("x[::2]"), "(Expr (Sub x (Slice _ _ 2)))");
    EXPECT_EQ(dump("x[:]"), "(Expr (Sub x (Slice _ _ _)))");
    EXPECT_EQ(dump("x[1:]"), "(Expr (Sub x (Slice 1 _ _)))");
    EXPECT_EQ(dump("x[0, :, None, ...]"), "(Expr (Sub x (Tuple 0 (Slice _ _ _) None ...)))");
    EXPECT_EQ(dump("x[..., 1]"), "(Expr (Sub x (Tuple ... 1)))");
    EXPECT_EQ(dump("x[i,]"), "(Expr (Sub x (Tuple i)))");
    EXPECT_EQ(dump("x[-1]"), "(Expr (Sub x (u- 1)))");
}

TEST(ScriptParser, Comprehensions) {
    EXPECT_EQ(dump("tuple(f(x) for x in xs)"), "(Expr (Call tuple (GenExp (Call f x) (for x xs))))");
    EXPECT_EQ(dump("[x * y for x in a if x for y in b if y > 0 if y < 9]"),
              "(Expr (ListComp (* x y) (for x a (if x)) (for y b (if (Compare y > 0)) (if (Compare y < 9)))))");
    EXPECT_EQ(dump("s = sum((i for i, _ in pairs), 0)"), "(Assign s (Call sum (GenExp i (for (Tuple i _) pairs)) 0))");
    EXPECT_EQ(dump("d = {k: v for k, v in items}"), "(Assign d (DictComp k v (for (Tuple k v) items)))");
    EXPECT_EQ(dump("[a if c else b for a in x]"), "(Expr (ListComp (IfExp c a b) (for a x)))");
}

TEST(ScriptParser, FStrings) {
    EXPECT_EQ(dump("f'a{x}b'"), "(Expr (FStr 'a' (Fmt x) 'b'))");
    EXPECT_EQ(dump("f'{x!r} {y!s:>10} {z:.{p}f}'"),
              "(Expr (FStr (Fmt x !r) ' ' (Fmt y !s (FStr '>10')) ' ' (Fmt z (FStr '.' (Fmt p) 'f'))))");
    EXPECT_EQ(dump("f'{{literal}} {a + b * 2}'"), "(Expr (FStr '{literal} ' (Fmt (+ a (* b 2)))))");
    EXPECT_EQ(dump("x = 'p' f\"{n}\" 'q'"), "(Assign x (FStr 'p' (Fmt n) 'q'))");
    EXPECT_EQ(dump("f'{x=}'"), "(Expr (FStr 'x=' (Fmt x !r)))");
    EXPECT_EQ(dump("f'{d[\"k\"]} {f(a, b)!r} {t.shape[0]}'"),
              "(Expr (FStr (Fmt (Sub d 'k')) ' ' (Fmt (Call f a b) !r) ' ' (Fmt (Sub (. t shape) 0))))");
    EXPECT_EQ(dump("f'{a!=b}'"), "(Expr (FStr (Fmt (Compare a != b))))");
    EXPECT_EQ(dump("f'tab\\t{x}\\n'"), "(Expr (FStr 'tab\\t' (Fmt x) '\\n'))");
    EXPECT_EQ(dump("rf'\\d{x}'"), "(Expr (FStr '\\\\d' (Fmt x)))");
    EXPECT_EQ(dump("f'{\"nested\" if c else f\"{y}\"}'"),
              "(Expr (FStr (Fmt (IfExp c 'nested' (FStr (Fmt y))))))");
    EXPECT_EQ(dump("f''"), "(Expr (FStr))");
}

TEST(ScriptParser, FStringExpressionPositions) {
    auto m = parseScript("s = f'ab{x + yy}'\n", "t.py");
    const JoinedStr& j = valueOf(*m).as<JoinedStr>();
    const FormattedValue& fv = j.values[1]->as<FormattedValue>();
    EXPECT_EQ(fv.loc.column, 9);  // the '{'
    const BinOp& b = fv.value->as<BinOp>();
    EXPECT_EQ(b.loc.line, 1);
    EXPECT_EQ(b.loc.column, 10);
    EXPECT_EQ(b.opLoc.column, 12);
    EXPECT_EQ(b.right->loc.column, 14);
    EXPECT_EQ(b.endColumn, 16);
}

// ------------------------------------------------------------------ positions and source

TEST(ScriptParser, NodeSpansAndOperatorColumns) {
    auto m = parseScript("import torch\ny = torch.add(a, b) + c ** 2\n", "t.py");
    const Stmt& s = *m->body[1];
    EXPECT_EQ(s.loc.line, 2);
    EXPECT_EQ(s.loc.column, 1);
    EXPECT_EQ(s.endLine, 2);
    EXPECT_EQ(s.endColumn, 29);
    const BinOp& add = valueOf(*m, 1).as<BinOp>();
    EXPECT_EQ(add.loc.column, 5);
    EXPECT_EQ(add.endColumn, 29);
    EXPECT_EQ(add.opLoc.line, 2);
    EXPECT_EQ(add.opLoc.column, 21);
    EXPECT_EQ(add.opLength, 1);
    const Call& call = add.left->as<Call>();
    EXPECT_EQ(call.loc.column, 5);
    EXPECT_EQ(call.endColumn, 20);
    EXPECT_EQ(call.func->as<Attribute>().attrLoc.column, 11);
    const BinOp& pow = add.right->as<BinOp>();
    EXPECT_EQ(pow.opLoc.column, 25);
    EXPECT_EQ(pow.opLength, 2);
    EXPECT_EQ(pow.loc.file, "t.py");
}

TEST(ScriptParser, MultiLineStatementSpan) {
    auto m = parseScript("x = f(1,\n      2)\nif a:\n    b = 1\n", "t.py");
    EXPECT_EQ(m->body[0]->endLine, 2);
    EXPECT_EQ(m->body[0]->endColumn, 9);
    EXPECT_EQ(m->sourceText(*m->body[0]), "x = f(1,\n      2)");
    EXPECT_EQ(m->body[1]->loc.line, 3);
    EXPECT_EQ(m->body[1]->endLine, 4);
}

TEST(ScriptParser, SourceLines) {
    auto m = parseScript("a = 1\r\n\n  # c\nb = 2", "t.py");
    EXPECT_EQ(m->fileName, "t.py");
    EXPECT_EQ(m->sourceLine(1), "a = 1");
    EXPECT_EQ(m->sourceLine(2), "");
    EXPECT_EQ(m->sourceLine(3), "  # c");
    EXPECT_EQ(m->sourceLine(4), "b = 2");
    EXPECT_EQ(m->sourceLine(5), "");
    EXPECT_EQ(m->sourceLine(0), "");
    EXPECT_EQ(m->body[1]->loc.line, 4);
}

TEST(ScriptParser, ParseExpressionEntryPoint) {
    EXPECT_EQ(dumpExpr(*parseExpression("a + b[1]", "e")), "(+ a (Sub b 1))");
    EXPECT_THROW(parseExpression("a b", "e"), ScriptError);
}

// ------------------------------------------------------------------ indentation

TEST(ScriptParser, IndentationEdgeCases) {
    EXPECT_EQ(dump("if a:\n        b\n        c\nd\n"), "(If a (body (Expr b) (Expr c)))\n(Expr d)");
    EXPECT_EQ(dump("if a:\n  if b:\n    c\n  d\n"), "(If a (body (If b (body (Expr c))) (Expr d)))");
    EXPECT_EQ(dump("if a:\n\tb\n\tc\n"), "(If a (body (Expr b) (Expr c)))");
    EXPECT_EQ(parseErrorOf("if a:\n\tb\n        c\n"), "TabError 3:9 inconsistent use of tabs and spaces in indentation");
    EXPECT_EQ(dump("def f():\n    x = (1 +\n2)\n    return x\n"),
              "(Def f () (body (Assign x (+ 1 2)) (Return x)))");
    EXPECT_EQ(dump("if a:  # comment\n    # comment\n\n    b\n"), "(If a (body (Expr b)))");
    EXPECT_EQ(dump("if a:\n    b"), "(If a (body (Expr b)))");
    EXPECT_EQ(dump("\n\n  \n# c\nx = 1\n\n"), "(Assign x 1)");
    EXPECT_EQ(dump(""), "");
}

// ------------------------------------------------------------------ errors

TEST(ScriptParser, SyntaxErrorsNameLineAndColumn) {
    EXPECT_EQ(parseErrorOf("x = = 1"), "SyntaxError 1:5 invalid syntax");
    EXPECT_EQ(parseErrorOf("if x\n    pass\n"), "SyntaxError 1:5 expected ':'");
    EXPECT_EQ(parseErrorOf("def f(x)\n    pass\n"), "SyntaxError 1:9 expected ':'");
    EXPECT_EQ(parseErrorOf("x = 1\n    y = 2\n"), "IndentationError 2:1 unexpected indent");
    EXPECT_EQ(parseErrorOf("if x:\npass\n"), "IndentationError 2:1 expected an indented block after 'if' statement on line 1");
    EXPECT_EQ(parseErrorOf("def f():\n\n"),
              "IndentationError 3:1 expected an indented block after function definition on line 1");
    EXPECT_EQ(parseErrorOf("if a:\n    b\n  c\n"), "IndentationError 3:3 unindent does not match any outer indentation level");
    EXPECT_EQ(parseErrorOf("s = 'abc\n"), "SyntaxError 1:5 unterminated string literal (detected at line 1)");
    EXPECT_EQ(parseErrorOf("s = b'a' 'b'\n"), "SyntaxError 1:5 cannot mix bytes and nonbytes literals");
    EXPECT_EQ(parseErrorOf("x := 5\n"), "SyntaxError 1:3 invalid syntax");
    EXPECT_EQ(parseErrorOf("(x.y := 1)\n"), "SyntaxError 1:2 cannot use assignment expressions with attribute");
    EXPECT_EQ(parseErrorOf("(x[0] := 1)\n"), "SyntaxError 1:2 cannot use assignment expressions with subscript");
    EXPECT_EQ(parseErrorOf("f(a b)"), "SyntaxError 1:5 invalid syntax. Perhaps you forgot a comma?");
    EXPECT_EQ(parseErrorOf("f(x=1, y)"), "SyntaxError 1:8 positional argument follows keyword argument");
    EXPECT_EQ(parseErrorOf("f(x for x in y, 2)"), "SyntaxError 1:3 generator expression must be parenthesized");
    EXPECT_EQ(parseErrorOf("f(a=1, a=2)"), "SyntaxError 1:8 keyword argument repeated: a");
    EXPECT_EQ(parseErrorOf("f(a + 1=2)"), "SyntaxError 1:8 expression cannot contain assignment, perhaps you meant \"==\"?");
    EXPECT_EQ(parseErrorOf("f() = 1"), "SyntaxError 1:1 cannot assign to function call");
    EXPECT_EQ(parseErrorOf("1 = x"), "SyntaxError 1:1 cannot assign to literal");
    EXPECT_EQ(parseErrorOf("a, None = x"), "SyntaxError 1:4 cannot assign to None");
    EXPECT_EQ(parseErrorOf("del f()"), "SyntaxError 1:5 cannot delete function call");
    EXPECT_EQ(parseErrorOf("for f() in x: pass"), "SyntaxError 1:5 cannot assign to function call");
    EXPECT_EQ(parseErrorOf("a, b += 1"), "SyntaxError 1:1 'tuple' is an illegal expression for augmented assignment");
    EXPECT_EQ(parseErrorOf("x + 1 += 2"), "SyntaxError 1:1 'expression' is an illegal expression for augmented assignment");
    EXPECT_EQ(parseErrorOf("x = 1 if y"), "SyntaxError 1:11 expected 'else' after 'if' expression");
    EXPECT_EQ(parseErrorOf("def f(a=1, b): pass"), "SyntaxError 1:12 parameter without a default follows parameter with a default");
    EXPECT_EQ(parseErrorOf("def f(a, a): pass"), "SyntaxError 1:10 duplicate argument 'a' in function definition");
    EXPECT_EQ(parseErrorOf("def f(*): pass"), "SyntaxError 1:7 named arguments must follow bare *");
    EXPECT_EQ(parseErrorOf("def f(**k, a): pass"), "SyntaxError 1:12 arguments cannot follow var-keyword argument");
    EXPECT_EQ(parseErrorOf("import"), "SyntaxError 1:7 expected a name");
    EXPECT_EQ(parseErrorOf("x = (1,\n 2"), "SyntaxError 1:5 '(' was never closed");
    EXPECT_EQ(parseErrorOf("x = [1, 2)"), "SyntaxError 1:10 closing parenthesis ')' does not match opening parenthesis '['");
    EXPECT_EQ(parseErrorOf("x = (*a)"), "SyntaxError 1:6 cannot use starred expression here");
    EXPECT_EQ(parseErrorOf("x = 1 +"), "SyntaxError 1:8 invalid syntax");
    EXPECT_EQ(parseErrorOf("else:\n  pass\n"), "SyntaxError 1:1 invalid syntax");
    EXPECT_EQ(parseErrorOf("@dec\nx = 1\n"), "SyntaxError 2:1 expected 'def' after decorator");
}

TEST(ScriptParser, ClassesTryStatementsAndSets) {
    EXPECT_EQ(dump("@dataclass\nclass A(B, C, metaclass=M):\n    x: int = 1\n    def f(self): pass\n"),
              "(Class A B C (kw metaclass M) (decorators dataclass) (body (AnnAssign x int 1) (Def f (self) (body (Pass)))))");
    EXPECT_EQ(dump("try:\n    f()\nexcept (A, B) as e:\n    raise C from e\nexcept D:\n    pass\nexcept:\n    raise\n"
                   "else:\n    g()\nfinally:\n    h()\n"),
              "(Try (body (Expr (Call f))) (except (Tuple A B) as e (body (Raise C (from e)))) (except D (body (Pass))) "
              "(except (body (Raise))) (else (Expr (Call g))) (finally (Expr (Call h))))");
    EXPECT_EQ(dump("s = {1, *t}\nu = {x for x in t}\nd = {}\n"),
              "(Assign s (Set 1 (* t)))\n(Assign u (SetComp x (for x t)))\n(Assign d (Dict))");
    EXPECT_EQ(parseErrorOf("try:\n    pass\n"), "SyntaxError 3:1 expected 'except' or 'finally' block");
    EXPECT_EQ(parseErrorOf("try:\n    pass\nexcept:\n    pass\nexcept E:\n    pass\n"),
              "SyntaxError 3:1 default 'except:' must be last");
    EXPECT_EQ(parseErrorOf("try:\n    pass\nexcept A, B:\n    pass\n"),
              "SyntaxError 3:9 multiple exception types must be parenthesized");
    EXPECT_EQ(parseErrorOf("d = {1: 2, 3}"), "SyntaxError 1:13 ':' expected after dictionary key");
}

// yield makes the innermost def a generator (not an enclosing one, not a nested one); it
// is refused where Python refuses it.
TEST(ScriptParser, YieldMakesItsFunctionAGenerator) {
    EXPECT_EQ(dump("def g(xs):\n    got = yield 1\n    yield\n    x = yield from xs\n    print((yield a, b))\n"),
              "(Def g (xs) (body (Assign got (Yield 1)) (Expr (Yield)) (Assign x (YieldFrom xs)) "
              "(Expr (Call print (Yield (Tuple a b))))))");
    auto m = parseScript("def outer():\n    def inner():\n        yield 1\n    return inner\n", "t.py");
    const auto& outer = m->body[0]->as<FunctionDef>();
    EXPECT_FALSE(outer.isGenerator);
    EXPECT_TRUE(outer.body[0]->as<FunctionDef>().isGenerator);
    EXPECT_EQ(parseErrorOf("x = yield"), "SyntaxError 1:5 'yield' outside function");
    EXPECT_EQ(parseErrorOf("class A:\n    yield 1\n"), "SyntaxError 2:5 'yield' outside function");
    EXPECT_EQ(parseErrorOf("def f():\n    yield = 1\n"), "SyntaxError 2:5 cannot assign to yield expression");
    EXPECT_EQ(parseErrorOf("def f(xs):\n    return [(yield x) for x in xs]\n"), "SyntaxError 2:14 'yield' inside list comprehension");
    EXPECT_EQ(parseErrorOf("def f(xs):\n    g = ((yield) for x in xs)\n"), "SyntaxError 2:11 'yield' inside generator expression");
    EXPECT_EQ(parseErrorOf("def f(xs):\n    s = {x: (yield) for x in xs}\n"), "SyntaxError 2:14 'yield' inside dict comprehension");
    EXPECT_EQ(dump("def f(xs):\n    yield [x for x in xs]\n"), "(Def f (xs) (body (Expr (Yield (ListComp x (for x xs))))))");
}

TEST(ScriptParser, UnsupportedSyntaxIsNamed) {
    EXPECT_EQ(parseErrorOf("try:\n    f()\nexcept* E:\n    pass\n"), "SyntaxError 3:7 'except*' is not supported by Fusescope scripts");
    EXPECT_EQ(parseErrorOf("class A(*bases): pass\n"), "SyntaxError 1:1 starred base classes are not supported by Fusescope scripts");
    EXPECT_EQ(parseErrorOf("f = lambda: (yield)"), "SyntaxError 1:14 'yield' in a lambda is not supported by Fusescope scripts");
    EXPECT_EQ(parseErrorOf("async def f(): pass"), "SyntaxError 1:1 'async' is not supported by Fusescope scripts");
    EXPECT_EQ(parseErrorOf("x = await y"), "SyntaxError 1:5 'await' is not supported by Fusescope scripts");
    EXPECT_EQ(parseErrorOf("x = 2j"), "SyntaxError 1:5 complex literals are not supported by Fusescope scripts");
    EXPECT_EQ(parseErrorOf("if x:\n    match (x, y):\n        case _:\n            pass\n"),
              "SyntaxError 2:5 'match' statements are not supported by Fusescope scripts");
    // `match` stays a name where it is one.
    EXPECT_EQ(dump("match = 1\nmatch(x)\nmatch.group(1)\n"), "(Assign match 1)\n(Expr (Call match x))\n(Expr (Call (. match group) 1))");
}

TEST(ScriptParser, LoopElse) {
    EXPECT_EQ(dump("for x in y:\n    pass\nelse:\n    z = 1\n"), "(For x y (body (Pass)) (else (Assign z 1)))");
    EXPECT_EQ(dump("while x:\n    break\nelse:\n    pass\n"), "(While x (body (Break)) (else (Pass)))");
    EXPECT_EQ(parseErrorOf("for x in y:\n    pass\nelse:\npass\n"), "IndentationError 4:1 expected an indented block after 'else' statement on line 3");
}

TEST(ScriptParser, PositionalOnlyParameters) {
    EXPECT_EQ(dump("def f(a, b=1, /, c=2, *, d): pass"), "(Def f (/:a /:b=1 c=2 kw:d) (body (Pass)))");
    EXPECT_EQ(dump("lambda x, /: x"), "(Expr (Lambda (/:x) x))");
    EXPECT_EQ(parseErrorOf("def f(/, a): pass"), "SyntaxError 1:7 at least one argument must precede /");
    EXPECT_EQ(parseErrorOf("def f(a, /, b, /): pass"), "SyntaxError 1:16 / may appear only once");
    EXPECT_EQ(parseErrorOf("def f(*a, /): pass"), "SyntaxError 1:11 / must be ahead of *");
    EXPECT_EQ(parseErrorOf("def f(a=1, /, b): pass"), "SyntaxError 1:15 parameter without a default follows parameter with a default");
}

TEST(ScriptParser, FStringErrors) {
    EXPECT_EQ(parseErrorOf("f'{}'"), "SyntaxError 1:3 f-string: empty expression not allowed");
    EXPECT_EQ(parseErrorOf("f'{x!z}'"), "SyntaxError 1:6 f-string: invalid conversion character: expected 's', 'r', or 'a'");
    EXPECT_EQ(parseErrorOf("f'a}'"), "SyntaxError 1:4 f-string: single '}' is not allowed");
    EXPECT_EQ(parseErrorOf("f'{x'"), "SyntaxError 1:3 f-string: expecting '}'");
    EXPECT_EQ(parseErrorOf("x = f'{a b}'"), "SyntaxError 1:10 invalid syntax");
    EXPECT_EQ(parseErrorOf("x = f'''\n{1 +}'''"), "SyntaxError 2:5 f-string: incomplete expression");
}

// ------------------------------------------------------------------ robustness

TEST(ScriptParser, NestingDepthIsLimited) {
    auto nested = [](const std::string& open, const std::string& core, const std::string& close, int n) {
        std::string s = "x = ";
        for (int i = 0; i < n; ++i) s += open;
        s += core;
        for (int i = 0; i < n; ++i) s += close;
        return s;
    };
    EXPECT_EQ(parseErrorOf(nested("(", "1", ")", 150)), "no error");
    EXPECT_EQ(parseErrorOf(nested("[", "", "]", 150)), "no error");
    for (const std::string& src :
         {nested("(", "1", ")", 100000), nested("[", "", "]", 5000), nested("{1: ", "1", "}", 5000),
          nested("-", "1", "", 100000), nested("not ", "a", "", 10000), nested("", "a", "+a", 100000),
          nested("", "a", ".b", 100000), nested("", "f", "()", 100000), nested("", "a", "[0]", 100000),
          nested("", "2", "**2", 100000), nested("lambda: ", "1", "", 10000), nested("", "1", " if c else 1", 10000),
          nested("f'{", "x", "}'", 1)}) {
        std::string err = parseErrorOf(src);
        if (err != "no error") {
            EXPECT_NE(err.find("nested too deeply"), std::string::npos) << err;
        }
        if (src.size() > 1000) {
            EXPECT_NE(err, "no error") << src.substr(0, 40);
        }
    }
    std::string blocks;
    for (int i = 0; i < 300; ++i) blocks += std::string(static_cast<size_t>(i), ' ') + "if x:\n";
    blocks += std::string(300, ' ') + "pass\n";
    EXPECT_NE(parseErrorOf(blocks).find("nested too deeply"), std::string::npos);
    std::string elifs = "if a:\n    pass\n";
    for (int i = 0; i < 1000; ++i) elifs += "elif b:\n    pass\n";
    EXPECT_NE(parseErrorOf(elifs), "no error");
    // Long flat sequences are not nesting.
    std::string flat = "x = [";
    for (int i = 0; i < 20000; ++i) flat += "a < b and c, ";
    flat += "]\n";
    EXPECT_EQ(parseErrorOf(flat), "no error");
}

namespace {

// Parses src and requires success or a located Error; anything else fails the test.
void expectParsesOrThrowsError(const std::string& src) {
    try {
        auto m = parseScript(src, "fuzz.py");
        (void)dumpAst(*m);
    } catch (const Error& e) {
        EXPECT_TRUE(e.where().known()) << e.what() << " for input: " << src;
    }
}

}  // namespace

TEST(ScriptParser, FuzzRandomBytes) {
    std::mt19937 rng(1234);
    const std::string alphabet = "abcxyz019_ \t\n\r\\'\"#()[]{}:;,.=+-*/%@&|^~<>!$?`fr{}\x80\xff";
    for (int iter = 0; iter < 3000; ++iter) {
        std::string src;
        size_t len = rng() % 64;
        for (size_t i = 0; i < len; ++i) {
            if (rng() % 8 == 0) src += static_cast<char>(rng() % 256);
            else src += alphabet[rng() % alphabet.size()];
        }
        expectParsesOrThrowsError(src);
    }
}

TEST(ScriptParser, FuzzTokenSoup) {
    const std::vector<std::string> pieces = {
        "x",  "y",   "f",      "torch", ".",      "(",      ")",     "[",     "]",     "{",     "}",    ":",
        ",",  "=",   "+",      "-",     "*",      "**",     "/",     "//",    "@",     "<",     "==",   "not",
        "in", "is",  "and",    "or",    "if",     "else",   "elif",  "for",   "while", "def",   "return",
        "1",  "2.5", "'s'",    "f'{x}'", "f'{x!r:>{w}}'", "None", "True", "lambda", "with", "as", "import",
        "from", "pass", "break", "\n", "\n    ", "\n  ", "\t", "\\\n", "*args", "**kw", "...", "del", "global",
        "assert", "raise", "class", "try", "yield", "+=", ";", "#c\n", "x = 1\n", "def g(a, b=2):\n    ",
    };
    std::mt19937 rng(42);
    for (int iter = 0; iter < 4000; ++iter) {
        std::string src;
        size_t n = rng() % 24;
        for (size_t i = 0; i < n; ++i) {
            src += pieces[rng() % pieces.size()];
            if (rng() % 2) src += ' ';
        }
        expectParsesOrThrowsError(src);
    }
}

TEST(ScriptParser, FuzzMutatedValidScript) {
    const std::string script =
        "import torch\nfrom torch.profiler import record_function\n\n"
        "@torch.compile(backend=\"eager\")\ndef f(x, y=2, *a, k=None, **kw):\n"
        "    for i, v in enumerate([1, 2.5, f'{x!r:>{y}}']):\n        if i > 0 and not v:\n"
        "            x[0, :, None] += i ** -2\n        elif v is None:\n            continue\n"
        "    with record_function('s') as r:\n        return tuple(g(t) for t in x if t)\n";
    ASSERT_EQ(parseErrorOf(script), "no error");
    std::mt19937 rng(7);
    for (int iter = 0; iter < 3000; ++iter) {
        std::string src = script;
        int edits = 1 + static_cast<int>(rng() % 4);
        for (int e = 0; e < edits; ++e) {
            size_t at = rng() % src.size();
            switch (rng() % 3) {
                case 0: src.erase(at, 1 + rng() % 3); break;
                case 1: src.insert(at, 1, script[rng() % script.size()]); break;
                default: src[at] = script[rng() % script.size()]; break;
            }
            if (src.empty()) src = "x";
        }
        expectParsesOrThrowsError(src);
    }
}
