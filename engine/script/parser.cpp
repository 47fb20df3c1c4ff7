#include "script/parser.h"

#include <algorithm>
#include <optional>
#include <unordered_set>

#include "script/lexer.h"

namespace fusescope {
namespace {

using TK = TokenKind;

// Recursive-descent parser over the token vector, one method per grammar rule, following
// the precedence ladder of Python's grammar.
class Parser {
public:
    Parser(std::vector<Token> tokens, const std::string& file, int depth = 0)
        : toks_(std::move(tokens)), file_(file), depth_(depth) {}

    StmtList parseFile() {
        StmtList body;
        while (!at(TK::EndOfFile)) parseStatement(body);
        return body;
    }

    ExprPtr parseSingleExpression() {
        ExprPtr e = parseStarExpressions();
        if (!at(TK::EndOfFile)) throw unexpected(cur());
        return e;
    }

    // Parses the field of an f-string: an expression list (no NEWLINE tokens here).
    ExprPtr parseFStringField() {
        inFString_ = true;
        if (at(TK::EndOfFile)) throw syntaxError("f-string: empty expression not allowed", cur());
        ExprPtr e = parseStarExpressions();
        if (!at(TK::EndOfFile)) throw unexpected(cur());
        return e;
    }

private:
    // ------------------------------------------------------------------ token helpers

    const Token& cur() const { return toks_[pos_]; }
    const Token& peekTok(size_t ahead = 1) const {
        return toks_[std::min(pos_ + ahead, toks_.size() - 1)];
    }
    const Token& prev() const { return toks_[pos_ > 0 ? pos_ - 1 : 0]; }
    bool at(TK k) const { return cur().kind == k; }
    const Token& advance() {
        const Token& t = toks_[pos_];
        if (pos_ + 1 < toks_.size()) ++pos_;
        return t;
    }
    bool accept(TK k) {
        if (!at(k)) return false;
        advance();
        return true;
    }
    const Token& expect(TK k) {
        if (!at(k)) {
            if (at(TK::Indent)) throw indentError("unexpected indent", cur());
            throw syntaxError("expected " + tokenKindName(k), cur());
        }
        return advance();
    }

    SourceLocation locOf(const Token& t) const { return SourceLocation{file_, t.line, t.column}; }
    ScriptError syntaxError(const std::string& msg, const Token& t) const {
        return ScriptError("SyntaxError", msg, locOf(t));
    }
    ScriptError syntaxErrorAt(const std::string& msg, const SourceLocation& loc) const {
        return ScriptError("SyntaxError", msg, loc);
    }
    ScriptError indentError(const std::string& msg, const Token& t) const {
        return ScriptError("IndentationError", msg, locOf(t));
    }
    ScriptError unsupported(const std::string& what, const Token& t) const {
        return syntaxError(what + " not supported by Fusescope scripts", t);
    }
    // The error for a token that cannot continue the construct being parsed.
    ScriptError unexpected(const Token& t) const {
        switch (t.kind) {
            case TK::Indent: return indentError("unexpected indent", t);
            case TK::EndOfFile:
                return syntaxError(inFString_ ? "f-string: incomplete expression" : "unexpected end of file", t);
            case TK::KwAwait: return unsupported("'await' is", t);
            case TK::KwAsync: return unsupported("'async' is", t);
            default: return syntaxError("invalid syntax", t);
        }
    }

    template <class T> std::unique_ptr<T> startNode(const Token& t) {
        auto n = std::make_unique<T>();
        n->loc = locOf(t);
        return n;
    }
    template <class T> std::unique_ptr<T> startNodeAt(const SourceLocation& loc) {
        auto n = std::make_unique<T>();
        n->loc = loc;
        return n;
    }
    // Ends a node at the last consumed token.
    template <class N> void finish(N& n) {
        n.endLine = prev().endLine;
        n.endColumn = prev().endColumn;
    }
    // Ends a compound statement with the last statement of its (last) block.
    static void finishBlock(Stmt& s, const StmtList& lastBlock) {
        if (lastBlock.empty()) return;
        s.endLine = lastBlock.back()->endLine;
        s.endColumn = lastBlock.back()->endColumn;
    }

    // Counts nesting; every recursive rule holds one, so depth stays bounded.
    class DepthGuard {
    public:
        DepthGuard(Parser& p, const Token& at, const char* what = "expression nested too deeply")
            : p_(p), what_(what) {
            deeper(at);
        }
        ~DepthGuard() { p_.depth_ -= added_; }
        void deeper(const Token& at) {
            ++added_;
            if (++p_.depth_ > kMaxParseDepth) throw p_.syntaxError(what_, at);
        }

    private:
        Parser& p_;
        const char* what_;
        int added_ = 0;
    };

    // ------------------------------------------------------------------ statements

    void parseStatement(StmtList& out) {
        switch (cur().kind) {
            case TK::KwDef:
            case TK::At: out.push_back(parseFunctionDef()); return;
            case TK::KwIf: out.push_back(parseIf()); return;
            case TK::KwFor: out.push_back(parseFor()); return;
            case TK::KwWhile: out.push_back(parseWhile()); return;
            case TK::KwWith: out.push_back(parseWith()); return;
            case TK::KwClass: out.push_back(parseClassDef({}, cur())); return;
            case TK::KwTry: out.push_back(parseTry()); return;
            case TK::KwExcept:
            case TK::KwFinally: throw syntaxError("invalid syntax", cur());
            case TK::KwAsync: throw unsupported("'async' is", cur());
            case TK::Indent: throw indentError("unexpected indent", cur());
            case TK::Dedent:
                // Only reachable when the lexer closed a block we are not in (cannot happen
                // in well-formed token streams); treat as invalid rather than loop.
                throw syntaxError("invalid syntax", cur());
            case TK::Newline: throw syntaxError("invalid syntax", cur());
            default:
                if (startsMatchStatement()) throw unsupported("'match' statements are", cur());
                parseSimpleStatements(out);
                return;
        }
    }

    // `match subject:` (a soft keyword: `match = 1` and `match(x)` stay a name's uses): the
    // name, then something that can start an expression, then a ':' ending the line outside
    // brackets.
    bool startsMatchStatement() const {
        if (!at(TK::Name) || cur().text != "match") return false;
        const TK next = peekTok().kind;
        if (next == TK::Assign || next == TK::Dot || next == TK::Newline || next == TK::Colon || next == TK::Comma) return false;
        int depth = 0;
        for (size_t ahead = 1; pos_ + ahead < toks_.size(); ++ahead) {
            const TK kind = peekTok(ahead).kind;
            if (kind == TK::Newline) return false;
            if (kind == TK::LParen || kind == TK::LBracket || kind == TK::LBrace) ++depth;
            if (kind == TK::RParen || kind == TK::RBracket || kind == TK::RBrace) --depth;
            if (kind == TK::Colon && depth == 0) return peekTok(ahead + 1).kind == TK::Newline;
        }
        return false;
    }

    void parseSimpleStatements(StmtList& out) {
        while (true) {
            out.push_back(parseSimpleStatement());
            if (accept(TK::Semicolon)) {
                if (at(TK::Newline)) break;
                continue;
            }
            break;
        }
        if (!at(TK::Newline)) throw unexpected(cur());
        advance();
    }

    StmtPtr parseSimpleStatement() {
        const Token& start = cur();
        switch (start.kind) {
            case TK::KwPass: return simple<Pass>();
            case TK::KwBreak: return simple<Break>();
            case TK::KwContinue: return simple<Continue>();
            case TK::KwReturn: {
                auto s = startNode<Return>(advance());
                if (!endsSimpleStatement()) s->value = parseStarExpressions();
                finish(*s);
                return s;
            }
            case TK::KwRaise: {
                auto s = startNode<Raise>(advance());
                if (!endsSimpleStatement()) {
                    s->exc = parseExpr();
                    if (accept(TK::KwFrom)) s->cause = parseExpr();
                }
                finish(*s);
                return s;
            }
            case TK::KwGlobal:
            case TK::KwNonlocal: {
                bool global = start.kind == TK::KwGlobal;
                advance();
                std::vector<std::string> names;
                do {
                    names.push_back(expectName().text);
                } while (accept(TK::Comma));
                if (global) {
                    auto s = startNode<Global>(start);
                    s->names = std::move(names);
                    finish(*s);
                    return s;
                }
                auto s = startNode<Nonlocal>(start);
                s->names = std::move(names);
                finish(*s);
                return s;
            }
            case TK::KwDel: {
                auto s = startNode<Delete>(advance());
                do {
                    if (endsSimpleStatement()) break;
                    ExprPtr t = parseBitOr();
                    setContext(*t, ExprContext::Del);
                    s->targets.push_back(std::move(t));
                } while (accept(TK::Comma));
                if (s->targets.empty()) throw syntaxError("invalid syntax", cur());
                finish(*s);
                return s;
            }
            case TK::KwAssert: {
                auto s = startNode<Assert>(advance());
                s->test = parseExpr();
                if (accept(TK::Comma)) s->msg = parseExpr();
                finish(*s);
                return s;
            }
            case TK::KwImport: return parseImport();
            case TK::KwFrom: return parseImportFrom();
            default: return parseExpressionStatement();
        }
    }

    template <class T> StmtPtr simple() {
        auto s = startNode<T>(advance());
        finish(*s);
        return s;
    }

    bool endsSimpleStatement() const {
        return at(TK::Newline) || at(TK::Semicolon) || at(TK::EndOfFile);
    }

    const Token& expectName() {
        if (!at(TK::Name)) {
            if (at(TK::Indent)) throw indentError("unexpected indent", cur());
            throw syntaxError("expected a name", cur());
        }
        return advance();
    }

    std::string parseDottedName() {
        std::string name = expectName().text;
        while (accept(TK::Dot)) name += "." + expectName().text;
        return name;
    }

    StmtPtr parseImport() {
        auto s = startNode<Import>(advance());
        do {
            Alias a;
            a.loc = locOf(cur());
            a.name = parseDottedName();
            if (accept(TK::KwAs)) a.asname = expectName().text;
            s->names.push_back(std::move(a));
        } while (accept(TK::Comma));
        finish(*s);
        return s;
    }

    StmtPtr parseImportFrom() {
        auto s = startNode<ImportFrom>(advance());
        while (at(TK::Dot) || at(TK::Ellipsis)) s->level += advance().kind == TK::Dot ? 1 : 3;
        if (!at(TK::KwImport)) s->module = parseDottedName();
        if (s->level == 0 && s->module.empty()) throw syntaxError("expected a module name", cur());
        expect(TK::KwImport);
        if (at(TK::Star)) {
            Alias a;
            a.loc = locOf(cur());
            a.name = "*";
            advance();
            s->names.push_back(std::move(a));
        } else {
            bool paren = accept(TK::LParen);
            do {
                if (paren && at(TK::RParen)) break;  // trailing comma
                Alias a;
                a.loc = locOf(cur());
                a.name = expectName().text;
                if (accept(TK::KwAs)) a.asname = expectName().text;
                s->names.push_back(std::move(a));
            } while (accept(TK::Comma));
            if (paren) expect(TK::RParen);
            if (s->names.empty()) throw syntaxError("expected a name", cur());
        }
        finish(*s);
        return s;
    }

    StmtPtr parseExpressionStatement() {
        const Token& start = cur();
        ExprPtr first = at(TK::KwYield) ? parseYield() : parseStarExpressions();
        if (at(TK::Colon)) {
            advance();
            checkSingleTarget(*first, "annotated");
            setContext(*first, ExprContext::Store);
            auto s = startNode<AnnAssign>(start);
            s->target = std::move(first);
            s->annotation = parseExpr();
            if (accept(TK::Assign)) s->value = parseAssignValue();
            finish(*s);
            return s;
        }
        if (auto op = augAssignOperator(cur().kind)) {
            const Token& opTok = advance();
            checkSingleTarget(*first, "augmented");
            setContext(*first, ExprContext::Store);
            auto s = startNode<AugAssign>(start);
            s->op = *op;
            s->opLoc = locOf(opTok);
            s->target = std::move(first);
            s->value = parseAssignValue();
            finish(*s);
            return s;
        }
        if (at(TK::Assign)) {
            auto s = startNode<Assign>(start);
            ExprPtr value = std::move(first);
            while (accept(TK::Assign)) {
                setContext(*value, ExprContext::Store);
                s->targets.push_back(std::move(value));
                value = parseAssignValue();
            }
            s->value = std::move(value);
            finish(*s);
            return s;
        }
        auto s = startNode<ExprStmt>(start);
        s->value = std::move(first);
        finish(*s);
        return s;
    }

    ExprPtr parseAssignValue() { return at(TK::KwYield) ? parseYield() : parseStarExpressions(); }

    // yield [value] / yield from value: makes the function around it a generator.
    ExprPtr parseYield() {
        const Token& t = advance();
        if (enclosing_.empty() || (!enclosing_.back().function && !enclosing_.back().lambda))
            throw syntaxError("'yield' outside function", t);
        if (enclosing_.back().lambda) throw unsupported("'yield' in a lambda is", t);
        enclosing_.back().function->isGenerator = true;
        auto y = startNode<Yield>(t);
        yields_.push_back(y->loc);
        if (accept(TK::KwFrom)) {
            y->from = true;
            y->value = parseExpr();
        } else if (startsExpression(cur().kind)) {
            y->value = parseStarExpressions();
        }
        finish(*y);
        return y;
    }

    static std::optional<BinaryOperator> augAssignOperator(TK k) {
        switch (k) {
            case TK::PlusAssign: return BinaryOperator::Add;
            case TK::MinusAssign: return BinaryOperator::Sub;
            case TK::StarAssign: return BinaryOperator::Mult;
            case TK::SlashAssign: return BinaryOperator::Div;
            case TK::DoubleSlashAssign: return BinaryOperator::FloorDiv;
            case TK::PercentAssign: return BinaryOperator::Mod;
            case TK::DoubleStarAssign: return BinaryOperator::Pow;
            case TK::AtAssign: return BinaryOperator::MatMult;
            case TK::AmpAssign: return BinaryOperator::BitAnd;
            case TK::PipeAssign: return BinaryOperator::BitOr;
            case TK::CaretAssign: return BinaryOperator::BitXor;
            case TK::LShiftAssign: return BinaryOperator::LShift;
            case TK::RShiftAssign: return BinaryOperator::RShift;
            default: return std::nullopt;
        }
    }

    // Augmented and annotated assignments take exactly one name, attribute or subscript.
    void checkSingleTarget(const Expr& e, const char* which) {
        if (e.kind == ExprKind::Name || e.kind == ExprKind::Attribute || e.kind == ExprKind::Subscript) return;
        std::string what = e.kind == ExprKind::Tuple ? "tuple" : e.kind == ExprKind::List ? "list" : "expression";
        throw syntaxErrorAt("'" + what + "' is an illegal expression for " + which + " assignment", e.loc);
    }

    // Marks an assignment/del target, rejecting what cannot be assigned to.
    void setContext(Expr& e, ExprContext ctx) {
        const char* verb = ctx == ExprContext::Del ? "delete" : "assign to";
        switch (e.kind) {
            case ExprKind::Name: e.as<Name>().ctx = ctx; return;
            case ExprKind::Attribute: e.as<Attribute>().ctx = ctx; return;
            case ExprKind::Subscript: e.as<Subscript>().ctx = ctx; return;
            case ExprKind::Tuple:
                e.as<Tuple>().ctx = ctx;
                for (auto& elt : e.as<Tuple>().elts) setContext(*elt, ctx);
                return;
            case ExprKind::List:
                e.as<List>().ctx = ctx;
                for (auto& elt : e.as<List>().elts) setContext(*elt, ctx);
                return;
            case ExprKind::Starred:
                if (ctx == ExprContext::Del) break;
                e.as<Starred>().ctx = ctx;
                setContext(*e.as<Starred>().value, ctx);
                return;
            default: break;
        }
        std::string what;
        switch (e.kind) {
            case ExprKind::Call: what = "function call"; break;
            case ExprKind::Constant:
                what = e.as<Constant>().type == ConstantKind::None    ? "None"
                       : e.as<Constant>().type == ConstantKind::Bool  ? (e.as<Constant>().boolValue ? "True" : "False")
                       : e.as<Constant>().type == ConstantKind::Ellipsis ? "ellipsis"
                                                                        : "literal";
                break;
            case ExprKind::JoinedStr: what = "f-string expression"; break;
            case ExprKind::Compare: what = "comparison"; break;
            case ExprKind::IfExp: what = "conditional expression"; break;
            case ExprKind::NamedExpr: what = "named expression"; break;
            case ExprKind::Lambda: what = "lambda"; break;
            case ExprKind::Yield: what = "yield expression"; break;
            case ExprKind::Dict: what = "dict literal"; break;
            case ExprKind::ListComp: what = "list comprehension"; break;
            case ExprKind::GeneratorExp: what = "generator expression"; break;
            case ExprKind::DictComp: what = "dict comprehension"; break;
            case ExprKind::Starred: what = "starred"; break;
            default: what = "expression"; break;
        }
        throw syntaxErrorAt(std::string("cannot ") + verb + " " + what, e.loc);
    }

    // ':' then an indented block or simple statements on the same line. `what` names the
    // construct for "expected an indented block after ..." messages.
    StmtList parseBlock(const std::string& what, int headerLine) {
        expect(TK::Colon);
        StmtList body;
        if (!at(TK::Newline)) {
            if (at(TK::EndOfFile)) throw syntaxError("expected an indented block after " + what + " on line " +
                                                         std::to_string(headerLine), cur());
            parseSimpleStatements(body);
            return body;
        }
        advance();
        if (!at(TK::Indent))
            throw indentError("expected an indented block after " + what + " on line " + std::to_string(headerLine),
                              cur());
        DepthGuard guard(*this, cur(), "statements nested too deeply");
        advance();
        while (!at(TK::Dedent) && !at(TK::EndOfFile)) parseStatement(body);
        accept(TK::Dedent);
        return body;
    }

    StmtPtr parseFunctionDef() {
        const Token& start = cur();
        std::vector<ExprPtr> decorators;
        while (at(TK::At)) {
            advance();
            decorators.push_back(parseExpr());
            expect(TK::Newline);
        }
        if (at(TK::KwClass)) return parseClassDef(std::move(decorators), start);
        if (at(TK::KwAsync)) throw unsupported("'async' is", cur());
        if (!at(TK::KwDef)) throw syntaxError("expected 'def' after decorator", cur());
        const Token& defTok = advance();
        auto s = startNode<FunctionDef>(start);
        s->decorators = std::move(decorators);
        const Token& nameTok = expectName();
        s->name = nameTok.text;
        s->nameLoc = locOf(nameTok);
        expect(TK::LParen);
        s->params = parseParams(TK::RParen, true);
        expect(TK::RParen);
        if (accept(TK::Arrow)) parseExpr();  // return annotation: parsed and dropped
        enclosing_.push_back({.function = s.get()});
        scopeReads_.emplace_back();
        s->body = parseBlock("function definition", defTok.line);
        finishScopeReads(*s, {start.line, start.column});
        enclosing_.pop_back();
        finishBlock(*s, s->body);
        return s;
    }

    // Parameters up to `close` (')' for def, ':' for lambda).
    std::vector<Param> parseParams(TK close, bool annotations) {
        std::vector<Param> params;
        std::unordered_set<std::string> seen;
        bool sawDefault = false, sawStar = false, sawKwargs = false, sawSlash = false;
        while (!at(close)) {
            const Token& start = cur();
            if (sawKwargs) throw syntaxError("arguments cannot follow var-keyword argument", start);
            Param p;
            p.loc = locOf(start);
            if (accept(TK::Slash)) {  // the parameters so far are positional-only
                if (sawSlash) throw syntaxError("/ may appear only once", start);
                if (sawStar) throw syntaxError("/ must be ahead of *", start);
                if (params.empty()) throw syntaxError("at least one argument must precede /", start);
                sawSlash = true;
                for (Param& before : params) before.kind = ParamKind::PositionalOnly;
                if (!accept(TK::Comma)) break;
                continue;
            }
            if (accept(TK::Star)) {
                if (sawStar) throw syntaxError("* argument may appear only once", start);
                sawStar = true;
                if (at(TK::Comma) || at(close)) {  // bare *: keyword-only parameters follow
                    accept(TK::Comma);
                    if (at(close) || at(TK::DoubleStar)) throw syntaxError("named arguments must follow bare *", start);
                    continue;
                }
                p.kind = ParamKind::VarArgs;
                p.name = expectName().text;
            } else if (accept(TK::DoubleStar)) {
                p.kind = ParamKind::VarKeywords;
                p.name = expectName().text;
                sawKwargs = true;
            } else {
                p.kind = sawStar ? ParamKind::KeywordOnly : ParamKind::Positional;
                p.name = expectName().text;
            }
            if (annotations && at(TK::Colon)) {
                advance();
                parseExpr();
            }
            if (at(TK::Assign)) {
                if (p.kind == ParamKind::VarArgs || p.kind == ParamKind::VarKeywords)
                    throw syntaxError("var-positional and var-keyword parameters cannot have default values", cur());
                advance();
                p.defaultValue = parseExpr();
                if (p.kind == ParamKind::Positional) sawDefault = true;
            } else if (p.kind == ParamKind::Positional && sawDefault) {
                throw syntaxError("parameter without a default follows parameter with a default", start);
            }
            if (!seen.insert(p.name).second)
                throw syntaxError("duplicate argument '" + p.name + "' in function definition", start);
            params.push_back(std::move(p));
            if (!accept(TK::Comma)) break;
        }
        if (!at(close)) {
            if (close == TK::RParen) throw syntaxError("expected ')'", cur());
            throw syntaxError("expected ':'", cur());
        }
        return params;
    }

    StmtPtr parseClassDef(std::vector<ExprPtr> decorators, const Token& start) {
        const Token& classTok = advance();
        auto s = startNode<ClassDef>(start);
        s->decorators = std::move(decorators);
        const Token& nameTok = expectName();
        s->name = nameTok.text;
        s->nameLoc = locOf(nameTok);
        if (at(TK::LParen)) {
            const SourceLocation open = locOf(advance());
            Call bases;  // the bases parse as call arguments: class A(B, metaclass=M)
            parseCallArguments(bases, open);
            expect(TK::RParen);
            for (auto& b : bases.args) {
                if (b->kind == ExprKind::Starred) throw unsupported("starred base classes are", classTok);
                s->bases.push_back(std::move(b));
            }
            for (auto& k : bases.keywords) {
                if (k.name.empty()) throw unsupported("'**' in a class definition is", classTok);
                s->keywords.push_back(std::move(k));
            }
        }
        enclosing_.push_back({});
        s->body = parseBlock("class definition", classTok.line);
        enclosing_.pop_back();
        finishBlock(*s, s->body);
        return s;
    }

    StmtPtr parseTry() {
        const Token& start = advance();
        auto s = startNode<Try>(start);
        s->body = parseBlock("'try' statement", start.line);
        while (at(TK::KwExcept)) {
            const Token& exceptTok = advance();
            ExceptHandler h;
            h.loc = locOf(exceptTok);
            if (at(TK::Star)) throw unsupported("'except*' is", cur());
            if (!at(TK::Colon)) {
                if (!s->handlers.empty() && !s->handlers.back().type)
                    throw syntaxErrorAt("default 'except:' must be last", s->handlers.back().loc);
                h.type = parseExpr();
                if (at(TK::Comma))
                    throw syntaxError("multiple exception types must be parenthesized", cur());
                if (accept(TK::KwAs)) h.name = expectName().text;
            }
            h.body = parseBlock("'except' statement", exceptTok.line);
            s->handlers.push_back(std::move(h));
        }
        if (at(TK::KwElse)) {
            if (s->handlers.empty()) throw syntaxError("expected 'except' or 'finally' block", cur());
            const Token& elseTok = advance();
            s->orelse = parseBlock("'else' statement", elseTok.line);
        }
        if (at(TK::KwFinally)) {
            const Token& finallyTok = advance();
            s->finalbody = parseBlock("'finally' statement", finallyTok.line);
        }
        if (s->handlers.empty() && s->finalbody.empty())
            throw syntaxError("expected 'except' or 'finally' block", cur());
        finishBlock(*s, !s->finalbody.empty() ? s->finalbody
                        : !s->orelse.empty()  ? s->orelse
                                              : s->handlers.back().body);
        return s;
    }

    StmtPtr parseIf() {
        const Token& start = advance();  // 'if' or 'elif'
        std::string what = start.kind == TK::KwIf ? "'if' statement" : "'elif' statement";
        auto s = startNode<If>(start);
        s->test = parseNamedExpr();
        s->body = parseBlock(what, start.line);
        if (at(TK::KwElif)) {
            DepthGuard guard(*this, cur(), "too many 'elif' branches");
            s->orelse.push_back(parseIf());
        } else if (at(TK::KwElse)) {
            const Token& elseTok = advance();
            s->orelse = parseBlock("'else' statement", elseTok.line);
        }
        finishBlock(*s, s->orelse.empty() ? s->body : s->orelse);
        return s;
    }

    // A loop's else block, run when the loop ends without a break.
    StmtList parseLoopElse() {
        if (!at(TK::KwElse)) return {};
        const Token& elseTok = advance();
        return parseBlock("'else' statement", elseTok.line);
    }

    StmtPtr parseFor() {
        const Token& start = advance();
        auto s = startNode<For>(start);
        s->target = parseTargetList();
        expect(TK::KwIn);
        s->iter = parseStarExpressions();
        s->body = parseBlock("'for' statement", start.line);
        s->orelse = parseLoopElse();
        finishBlock(*s, s->orelse.empty() ? s->body : s->orelse);
        return s;
    }

    StmtPtr parseWhile() {
        const Token& start = advance();
        auto s = startNode<While>(start);
        s->test = parseNamedExpr();
        s->body = parseBlock("'while' statement", start.line);
        s->orelse = parseLoopElse();
        finishBlock(*s, s->orelse.empty() ? s->body : s->orelse);
        return s;
    }

    StmtPtr parseWith() {
        const Token& start = advance();
        auto s = startNode<With>(start);
        if (at(TK::LParen)) {
            // `with (a as b, c):` (Python 3.9+). Try it as a parenthesised item list and
            // fall back to an ordinary expression, e.g. `with (a or b).ctx():`.
            size_t save = pos_;
            try {
                advance();
                parseWithItems(s->items, true);
                expect(TK::RParen);
                if (!at(TK::Colon)) throw syntaxError("expected ':'", cur());
            } catch (const ScriptError&) {
                pos_ = save;
                s->items.clear();
            }
        }
        if (s->items.empty()) parseWithItems(s->items, false);
        s->body = parseBlock("'with' statement", start.line);
        finishBlock(*s, s->body);
        return s;
    }

    void parseWithItems(std::vector<WithItem>& items, bool parenthesized) {
        do {
            if (parenthesized && at(TK::RParen) && !items.empty()) break;  // trailing comma
            WithItem item;
            item.context = parseExpr();
            if (accept(TK::KwAs)) {
                item.target = parseBitOrOrStar();
                setContext(*item.target, ExprContext::Store);
            }
            items.push_back(std::move(item));
        } while (accept(TK::Comma));
    }

    // for-loop / comprehension targets: a, (b, c), x.y, z[0] ... up to 'in'.
    ExprPtr parseTargetList() {
        ExprPtr first = parseBitOrOrStar();
        if (!at(TK::Comma)) {
            setContext(*first, ExprContext::Store);
            return first;
        }
        auto t = startNodeAt<Tuple>(first->loc);
        t->elts.push_back(std::move(first));
        while (accept(TK::Comma)) {
            if (at(TK::KwIn)) break;
            t->elts.push_back(parseBitOrOrStar());
        }
        finish(*t);
        setContext(*t, ExprContext::Store);
        return t;
    }

    ExprPtr parseBitOrOrStar() {
        if (at(TK::Star)) {
            auto s = startNode<Starred>(advance());
            s->value = parseBitOr();
            finish(*s);
            return s;
        }
        return parseBitOr();
    }

    // ------------------------------------------------------------------ expressions

    // star_expressions: a, *b, c  (a tuple when there is a comma)
    ExprPtr parseStarExpressions() {
        ExprPtr first = parseStarExpression();
        if (!at(TK::Comma)) return first;
        auto t = startNodeAt<Tuple>(first->loc);
        t->elts.push_back(std::move(first));
        while (accept(TK::Comma)) {
            if (!startsExpression(cur().kind)) break;
            t->elts.push_back(parseStarExpression());
        }
        finish(*t);
        return t;
    }

    // named_expression: NAME ':=' expression | expression. Where Python's grammar allows one:
    // conditions, call arguments, subscripts, parentheses, list and set displays.
    ExprPtr parseNamedExpr() {
        if (!at(TK::Name) || peekTok().kind != TK::Walrus) return parseExpr();
        DepthGuard guard(*this, cur());
        auto e = startNode<NamedExpr>(cur());
        e->target = advance().text;
        advance();
        e->value = parseExpr();
        finish(*e);
        return e;
    }

    ExprPtr parseStarNamedExpression() { return at(TK::Star) ? parseStarExpression() : parseNamedExpr(); }

    ExprPtr parseStarExpression() {
        if (at(TK::Star)) {
            auto s = startNode<Starred>(advance());
            s->value = parseBitOr();
            finish(*s);
            return s;
        }
        return parseExpr();
    }

    static bool startsExpression(TK k) {
        switch (k) {
            case TK::Name: case TK::Int: case TK::Float: case TK::String: case TK::KwNone:
            case TK::KwTrue: case TK::KwFalse: case TK::LParen: case TK::LBracket: case TK::LBrace:
            case TK::Minus: case TK::Plus: case TK::Tilde: case TK::KwNot: case TK::KwLambda:
            case TK::Ellipsis: case TK::Star: case TK::KwAwait: case TK::KwYield:
                return true;
            default: return false;
        }
    }

    // expression: lambda | disjunction ['if' disjunction 'else' expression]
    ExprPtr parseExpr() {
        DepthGuard guard(*this, cur());
        if (at(TK::KwLambda)) return parseLambda();
        ExprPtr body = parseOr();
        if (at(TK::Walrus)) {
            if (body->kind == ExprKind::Attribute || body->kind == ExprKind::Subscript)
                throw syntaxErrorAt(std::string("cannot use assignment expressions with ") +
                                        (body->kind == ExprKind::Attribute ? "attribute" : "subscript"), body->loc);
            throw unexpected(cur());
        }
        if (!at(TK::KwIf)) return body;
        advance();
        auto e = startNodeAt<IfExp>(body->loc);
        e->body = std::move(body);
        e->test = parseOr();
        if (!at(TK::KwElse)) throw syntaxError("expected 'else' after 'if' expression", cur());
        advance();
        e->orelse = parseExpr();
        finish(*e);
        return e;
    }

    // An expression without a top-level conditional (comprehension conditions).
    ExprPtr parseExprNoCond() {
        DepthGuard guard(*this, cur());
        if (at(TK::KwLambda)) return parseLambda();
        return parseOr();
    }

    ExprPtr parseLambda() {
        const Position start = position();
        auto e = startNode<Lambda>(advance());
        e->params = parseParams(TK::Colon, false);
        expect(TK::Colon);
        enclosing_.push_back({.lambda = true});
        e->body = parseExpr();
        enclosing_.pop_back();
        nestedScope(start);
        finish(*e);
        return e;
    }

    ExprPtr parseOr() { return parseBoolOp(TK::KwOr, BoolOperator::Or); }
    ExprPtr parseAnd() { return parseBoolOp(TK::KwAnd, BoolOperator::And); }

    ExprPtr parseBoolOp(TK kw, BoolOperator op) {
        ExprPtr first = kw == TK::KwOr ? parseAnd() : parseNot();
        if (!at(kw)) return first;
        auto e = startNodeAt<BoolOp>(first->loc);
        e->op = op;
        e->values.push_back(std::move(first));
        while (accept(kw)) e->values.push_back(kw == TK::KwOr ? parseAnd() : parseNot());
        finish(*e);
        return e;
    }

    ExprPtr parseNot() {
        if (!at(TK::KwNot)) return parseComparison();
        DepthGuard guard(*this, cur());
        auto e = startNode<UnaryOp>(advance());
        e->op = UnaryOperator::Not;
        e->operand = parseNot();
        finish(*e);
        return e;
    }

    std::optional<CompareOperator> compareOperator() {
        switch (cur().kind) {
            case TK::EqualEqual: return CompareOperator::Eq;
            case TK::NotEqual: return CompareOperator::NotEq;
            case TK::Less: return CompareOperator::Lt;
            case TK::LessEqual: return CompareOperator::LtE;
            case TK::Greater: return CompareOperator::Gt;
            case TK::GreaterEqual: return CompareOperator::GtE;
            case TK::KwIn: return CompareOperator::In;
            case TK::KwIs: return peekTok().kind == TK::KwNot ? CompareOperator::IsNot : CompareOperator::Is;
            case TK::KwNot:
                if (peekTok().kind == TK::KwIn) return CompareOperator::NotIn;
                return std::nullopt;
            default: return std::nullopt;
        }
    }

    ExprPtr parseComparison() {
        ExprPtr first = parseBitOr();
        auto op = compareOperator();
        if (!op) return first;
        auto e = startNodeAt<Compare>(first->loc);
        e->left = std::move(first);
        while (op) {
            e->opLocs.push_back(locOf(cur()));
            advance();
            if (*op == CompareOperator::IsNot || *op == CompareOperator::NotIn) advance();
            e->ops.push_back(*op);
            e->comparators.push_back(parseBitOr());
            op = compareOperator();
        }
        finish(*e);
        return e;
    }

    // The binary-operator levels, loosest first.
    enum class Level { BitOr, BitXor, BitAnd, Shift, Arith, Term };

    std::optional<BinaryOperator> binaryOperatorAt(Level level) const {
        TK k = cur().kind;
        switch (level) {
            case Level::BitOr: if (k == TK::Pipe) return BinaryOperator::BitOr; break;
            case Level::BitXor: if (k == TK::Caret) return BinaryOperator::BitXor; break;
            case Level::BitAnd: if (k == TK::Amp) return BinaryOperator::BitAnd; break;
            case Level::Shift:
                if (k == TK::LShift) return BinaryOperator::LShift;
                if (k == TK::RShift) return BinaryOperator::RShift;
                break;
            case Level::Arith:
                if (k == TK::Plus) return BinaryOperator::Add;
                if (k == TK::Minus) return BinaryOperator::Sub;
                break;
            case Level::Term:
                if (k == TK::Star) return BinaryOperator::Mult;
                if (k == TK::Slash) return BinaryOperator::Div;
                if (k == TK::DoubleSlash) return BinaryOperator::FloorDiv;
                if (k == TK::Percent) return BinaryOperator::Mod;
                if (k == TK::At) return BinaryOperator::MatMult;
                break;
        }
        return std::nullopt;
    }

    ExprPtr parseBitOr() { return parseBinary(Level::BitOr); }

    ExprPtr parseOperand(Level level) {
        switch (level) {
            case Level::BitOr: return parseBinary(Level::BitXor);
            case Level::BitXor: return parseBinary(Level::BitAnd);
            case Level::BitAnd: return parseBinary(Level::Shift);
            case Level::Shift: return parseBinary(Level::Arith);
            case Level::Arith: return parseBinary(Level::Term);
            case Level::Term: return parseFactor();
        }
        return parseFactor();
    }

    // Left-associative chain at one level; each link deepens the tree, so it counts.
    ExprPtr parseBinary(Level level) {
        ExprPtr left = parseOperand(level);
        std::optional<DepthGuard> guard;
        while (auto op = binaryOperatorAt(level)) {
            if (guard) guard->deeper(cur());
            else guard.emplace(*this, cur());
            const Token& opTok = advance();
            auto e = startNodeAt<BinOp>(left->loc);
            e->op = *op;
            e->opLoc = locOf(opTok);
            e->opLength = opTok.endColumn - opTok.column;
            e->left = std::move(left);
            e->right = parseOperand(level);
            finish(*e);
            left = std::move(e);
        }
        return left;
    }

    // factor: ('+' | '-' | '~') factor | power
    ExprPtr parseFactor() {
        UnaryOperator op;
        switch (cur().kind) {
            case TK::Plus: op = UnaryOperator::UAdd; break;
            case TK::Minus: op = UnaryOperator::USub; break;
            case TK::Tilde: op = UnaryOperator::Invert; break;
            default: return parsePower();
        }
        DepthGuard guard(*this, cur());
        auto e = startNode<UnaryOp>(advance());
        e->op = op;
        e->operand = parseFactor();
        finish(*e);
        return e;
    }

    // power: primary ['**' factor]  (right-associative through factor: -2**2 == -(2**2))
    ExprPtr parsePower() {
        if (at(TK::KwAwait)) throw unexpected(cur());
        ExprPtr base = parsePrimary();
        if (!at(TK::DoubleStar)) return base;
        DepthGuard guard(*this, cur());
        const Token& opTok = advance();
        auto e = startNodeAt<BinOp>(base->loc);
        e->op = BinaryOperator::Pow;
        e->opLoc = locOf(opTok);
        e->opLength = 2;
        e->left = std::move(base);
        e->right = parseFactor();
        finish(*e);
        return e;
    }

    // primary: atom ('.' NAME | '(' args ')' | '[' slices ']')*
    ExprPtr parsePrimary() {
        ExprPtr e = parseAtom();
        std::optional<DepthGuard> guard;
        while (at(TK::Dot) || at(TK::LParen) || at(TK::LBracket)) {
            if (guard) guard->deeper(cur());
            else guard.emplace(*this, cur());
            if (accept(TK::Dot)) {
                auto a = startNodeAt<Attribute>(e->loc);
                const Token& name = expectName();
                a->attr = name.text;
                a->attrLoc = locOf(name);
                a->value = std::move(e);
                finish(*a);
                e = std::move(a);
            } else if (at(TK::LParen)) {
                const SourceLocation open = locOf(advance());
                auto c = startNodeAt<Call>(e->loc);
                c->func = std::move(e);
                parseCallArguments(*c, open);
                expect(TK::RParen);
                finish(*c);
                e = std::move(c);
            } else {
                advance();
                auto s = startNodeAt<Subscript>(e->loc);
                s->value = std::move(e);
                s->index = parseSlices();
                expect(TK::RBracket);
                finish(*s);
                e = std::move(s);
            }
        }
        return e;
    }

    // `open`: the call's parenthesis, where a generator expression that is its only argument starts (as CPython's does)
    void parseCallArguments(Call& call, const SourceLocation& open) {
        bool sawKeyword = false, sawKwUnpack = false;
        while (!at(TK::RParen)) {
            const Token& start = cur();
            if (at(TK::DoubleStar)) {
                advance();
                Keyword k;
                k.loc = locOf(start);
                k.value = parseExpr();
                call.keywords.push_back(std::move(k));
                sawKwUnpack = true;
            } else if (at(TK::Star)) {
                if (sawKwUnpack)
                    throw syntaxError("iterable argument unpacking follows keyword argument unpacking", start);
                auto s = startNode<Starred>(advance());
                s->value = parseExpr();
                finish(*s);
                call.args.push_back(std::move(s));
            } else if (at(TK::Name) && peekTok().kind == TK::Assign) {
                Keyword k;
                k.loc = locOf(start);
                k.name = advance().text;
                advance();
                k.value = parseExpr();
                for (const Keyword& other : call.keywords)
                    if (other.name == k.name) throw syntaxError("keyword argument repeated: " + k.name, start);
                call.keywords.push_back(std::move(k));
                sawKeyword = true;
            } else {
                ExprPtr arg = parseNamedExpr();
                if (at(TK::Assign))
                    throw syntaxError("expression cannot contain assignment, perhaps you meant \"==\"?", cur());
                if (at(TK::KwFor)) {
                    bool alone = call.args.empty() && call.keywords.empty();
                    const SourceLocation element = arg->loc;
                    auto g = startNodeAt<GeneratorExp>(open);
                    g->elt = std::move(arg);
                    parseComprehensionClauses(g->generators, element, "generator expression");
                    finish(*g);
                    if (!alone || !at(TK::RParen))
                        throw syntaxErrorAt("generator expression must be parenthesized", element);
                    call.args.push_back(std::move(g));
                    break;
                }
                if (sawKwUnpack) throw syntaxErrorAt("positional argument follows keyword argument unpacking", arg->loc);
                if (sawKeyword) throw syntaxErrorAt("positional argument follows keyword argument", arg->loc);
                call.args.push_back(std::move(arg));
            }
            if (!accept(TK::Comma)) break;
        }
        if (!at(TK::RParen)) {
            if (at(TK::Name) || at(TK::Int) || at(TK::Float) || at(TK::String))
                throw syntaxError("invalid syntax. Perhaps you forgot a comma?", cur());
            throw unexpected(cur());
        }
    }

    // slices: slice (',' slice)* [',']  (a Tuple when there is a comma)
    ExprPtr parseSlices() {
        const Token& start = cur();
        ExprPtr first = parseSlice();
        if (!at(TK::Comma)) return first;
        auto t = startNode<Tuple>(start);
        t->elts.push_back(std::move(first));
        while (accept(TK::Comma)) {
            if (at(TK::RBracket)) break;
            t->elts.push_back(parseSlice());
        }
        finish(*t);
        return t;
    }

    ExprPtr parseSlice() {
        const Token& start = cur();
        if (at(TK::Star)) return parseStarExpression();
        ExprPtr lower;
        if (!at(TK::Colon)) {
            lower = parseNamedExpr();
            if (!at(TK::Colon)) return lower;
        }
        auto s = startNode<Slice>(start);
        s->lower = std::move(lower);
        advance();  // ':'
        if (!at(TK::Colon) && !at(TK::Comma) && !at(TK::RBracket)) s->upper = parseExpr();
        if (accept(TK::Colon)) {
            if (!at(TK::Comma) && !at(TK::RBracket)) s->step = parseExpr();
        }
        finish(*s);
        return s;
    }

    // The for/if clauses of a comprehension `what` whose first element began at `start`. A
    // yield anywhere in it is refused, as Python 3.8+ refuses it (it would yield from the
    // enclosing function).
    void parseComprehensionClauses(std::vector<Comprehension>& out, const SourceLocation& start, const char* what) {
        parseForIfClauses(out);
        nestedScope({start.line, start.column});
        if (!yields_.empty() && std::pair(yields_.back().line, yields_.back().column) >= std::pair(start.line, start.column))
            throw syntaxErrorAt(std::string("'yield' inside ") + what, yields_.back());
    }
    void parseForIfClauses(std::vector<Comprehension>& out) {
        while (at(TK::KwFor) || at(TK::KwAsync)) {
            if (at(TK::KwAsync)) throw unsupported("'async' is", cur());
            advance();
            Comprehension c;
            c.target = parseTargetList();
            expect(TK::KwIn);
            const Position iterStart = position();
            c.iter = parseOr();
            if (out.empty() && !scopeReads_.empty()) scopeReads_.back().outside.push_back({iterStart, position()});
            while (accept(TK::KwIf)) c.ifs.push_back(parseExprNoCond());
            out.push_back(std::move(c));
        }
    }

    ExprPtr parseAtom() {
        const Token& t = cur();
        switch (t.kind) {
            case TK::Name: {
                auto n = startNode<Name>(advance());
                n->id = t.text;
                if (!scopeReads_.empty()) scopeReads_.back().names.push_back({{t.line, t.column}, t.text});
                finish(*n);
                return n;
            }
            case TK::Int: {
                auto c = startNode<Constant>(advance());
                c->type = ConstantKind::Int;
                c->intValue = t.intValue;
                finish(*c);
                return c;
            }
            case TK::Float: {
                auto c = startNode<Constant>(advance());
                c->type = ConstantKind::Float;
                c->floatValue = t.floatValue;
                finish(*c);
                return c;
            }
            case TK::KwTrue:
            case TK::KwFalse: {
                auto c = startNode<Constant>(advance());
                c->type = ConstantKind::Bool;
                c->boolValue = t.kind == TK::KwTrue;
                finish(*c);
                return c;
            }
            case TK::KwNone: {
                auto c = startNode<Constant>(advance());
                c->type = ConstantKind::None;
                finish(*c);
                return c;
            }
            case TK::Ellipsis: {
                auto c = startNode<Constant>(advance());
                c->type = ConstantKind::Ellipsis;
                finish(*c);
                return c;
            }
            case TK::String: return parseStrings();
            case TK::LParen: return parseParenthesized();
            case TK::LBracket: return parseListDisplay();
            case TK::LBrace: return parseBraceDisplay();
            default: throw unexpected(t);
        }
    }

    ExprPtr parseParenthesized() {  // nesting is counted by the parseExpr calls inside
        const Token& open = advance();
        if (at(TK::RParen)) {
            auto t = startNode<Tuple>(open);
            advance();
            finish(*t);
            return t;
        }
        if (at(TK::KwYield)) {
            ExprPtr y = parseYield();
            expect(TK::RParen);
            return y;
        }
        ExprPtr first = parseStarNamedExpression();
        if (at(TK::KwFor)) {
            auto g = startNode<GeneratorExp>(open);
            g->elt = std::move(first);
            parseComprehensionClauses(g->generators, g->loc, "generator expression");
            expect(TK::RParen);
            finish(*g);
            return g;
        }
        if (at(TK::Comma)) {
            auto t = startNode<Tuple>(open);
            t->elts.push_back(std::move(first));
            while (accept(TK::Comma)) {
                if (at(TK::RParen)) break;
                t->elts.push_back(parseStarNamedExpression());
            }
            expectClosing(TK::RParen);
            finish(*t);
            return t;
        }
        expectClosing(TK::RParen);
        if (first->kind == ExprKind::Starred) throw syntaxErrorAt("cannot use starred expression here", first->loc);
        return first;  // parentheses only group; the node keeps its own span
    }

    void expectClosing(TK close) {
        if (at(close)) {
            advance();
            return;
        }
        if (at(TK::Name) || at(TK::Int) || at(TK::Float) || at(TK::String))
            throw syntaxError("invalid syntax. Perhaps you forgot a comma?", cur());
        throw unexpected(cur());
    }

    ExprPtr parseListDisplay() {  // nesting is counted by the parseExpr calls inside
        const Token& open = advance();
        if (at(TK::RBracket)) {
            auto l = startNode<List>(open);
            advance();
            finish(*l);
            return l;
        }
        ExprPtr first = parseStarNamedExpression();
        if (at(TK::KwFor)) {
            auto c = startNode<ListComp>(open);
            c->elt = std::move(first);
            parseComprehensionClauses(c->generators, c->loc, "list comprehension");
            expect(TK::RBracket);
            finish(*c);
            return c;
        }
        auto l = startNode<List>(open);
        l->elts.push_back(std::move(first));
        while (accept(TK::Comma)) {
            if (at(TK::RBracket)) break;
            l->elts.push_back(parseStarNamedExpression());
        }
        expectClosing(TK::RBracket);
        finish(*l);
        return l;
    }

    ExprPtr parseBraceDisplay() {  // nesting is counted by the parseExpr calls inside
        const Token& open = advance();
        auto d = startNode<Dict>(open);
        if (accept(TK::RBrace)) {
            finish(*d);
            return d;
        }
        bool first = true;
        do {
            if (at(TK::RBrace)) break;
            if (accept(TK::DoubleStar)) {
                d->keys.push_back(nullptr);
                d->values.push_back(parseBitOr());
            } else {
                ExprPtr key = parseStarNamedExpression();
                if (first && !at(TK::Colon)) return parseSetDisplay(open, std::move(key));
                if (!at(TK::Colon)) throw syntaxError("':' expected after dictionary key", cur());
                advance();
                ExprPtr value = parseExpr();
                if (first && at(TK::KwFor)) {
                    auto c = startNode<DictComp>(open);
                    c->key = std::move(key);
                    c->value = std::move(value);
                    parseComprehensionClauses(c->generators, c->loc, "dict comprehension");
                    expect(TK::RBrace);
                    finish(*c);
                    return c;
                }
                d->keys.push_back(std::move(key));
                d->values.push_back(std::move(value));
            }
            first = false;
        } while (accept(TK::Comma));
        expectClosing(TK::RBrace);
        finish(*d);
        return d;
    }

    // {a, b} or {elt for ...}, after its first element.
    ExprPtr parseSetDisplay(const Token& open, ExprPtr first) {
        if (at(TK::KwFor)) {
            auto c = startNode<SetComp>(open);
            c->elt = std::move(first);
            parseComprehensionClauses(c->generators, c->loc, "set comprehension");
            expect(TK::RBrace);
            finish(*c);
            return c;
        }
        auto set = startNode<Set>(open);
        set->elts.push_back(std::move(first));
        while (accept(TK::Comma)) {
            if (at(TK::RBrace)) break;
            set->elts.push_back(parseStarNamedExpression());
        }
        expectClosing(TK::RBrace);
        finish(*set);
        return set;
    }

    // ------------------------------------------------------------------ strings

    // Adjacent string literals concatenate; any f-string among them makes a JoinedStr.
    ExprPtr parseStrings() {
        const Token& first = cur();
        size_t begin = pos_;
        bool anyF = false;
        while (at(TK::String)) {
            if (advance().isBytes != first.isBytes) throw syntaxError("cannot mix bytes and nonbytes literals", first);
            anyF |= toks_[pos_ - 1].isFString;
        }
        size_t end = pos_;
        if (!anyF) {
            auto c = startNode<Constant>(first);
            c->type = first.isBytes ? ConstantKind::Bytes : ConstantKind::Str;
            for (size_t i = begin; i < end; ++i) c->strValue += toks_[i].text;
            finish(*c);
            return c;
        }
        auto j = startNode<JoinedStr>(first);
        for (size_t i = begin; i < end; ++i) {
            const Token& t = toks_[i];
            if (t.isFString) {
                FStringScanner scan{*this, t, 0};
                scan.parseParts(j->values, false);
            } else {
                appendLiteral(j->values, t.text, locOf(t), t.endLine, t.endColumn);
            }
        }
        finish(*j);
        return j;
    }

    // Adds a literal part, merging with a preceding literal part.
    static void appendLiteral(std::vector<ExprPtr>& parts, const std::string& text, const SourceLocation& loc,
                              int endLine, int endColumn) {
        if (text.empty()) return;
        if (!parts.empty() && parts.back()->kind == ExprKind::Constant) {
            Constant& c = parts.back()->as<Constant>();
            c.strValue += text;
            c.endLine = endLine;
            c.endColumn = endColumn;
            return;
        }
        auto c = std::make_unique<Constant>();
        c->type = ConstantKind::Str;
        c->strValue = text;
        c->loc = loc;
        c->endLine = endLine;
        c->endColumn = endColumn;
        parts.push_back(std::move(c));
    }

    // Splits an f-string body into literal parts and {fields}, tracking source positions
    // so embedded expressions are lexed in place.
    struct FStringScanner {
        Parser& p;
        const Token& tok;
        size_t i;
        int line = tok.bodyLine, col = tok.bodyColumn;  // position of body[i]
        const std::string& body = tok.text;

        bool done() const { return i >= body.size(); }
        char ch(size_t ahead = 0) const { return i + ahead < body.size() ? body[i + ahead] : '\0'; }
        void step() {
            if (body[i] == '\n' || (body[i] == '\r' && ch(1) != '\n')) {
                ++line;
                col = 1;
            } else if (body[i] != '\r') {
                ++col;
            } else {
                ++col;  // the \r of \r\n; the \n ends the line
            }
            ++i;
        }
        SourceLocation here() const { return SourceLocation{p.file_, line, col}; }
        ScriptError error(const std::string& msg) const { return ScriptError("SyntaxError", "f-string: " + msg, here()); }

        // Parses parts until the end of the body or, in a format spec, the closing '}'.
        void parseParts(std::vector<ExprPtr>& parts, bool inSpec) {
            std::string raw;
            SourceLocation litLoc = here();
            auto flush = [&]() {
                if (raw.empty()) return;
                std::string text = tok.isRaw ? raw : decodeStringEscapes(raw, litLoc);
                appendLiteral(parts, text, litLoc, line, col);
                raw.clear();
            };
            while (!done()) {
                char c = ch();
                if (c == '{') {
                    if (ch(1) == '{' && !inSpec) {
                        if (raw.empty()) litLoc = here();
                        raw += '{';
                        step();
                        step();
                        continue;
                    }
                    flush();
                    parseField(parts);
                    litLoc = here();
                    continue;
                }
                if (c == '}') {
                    if (inSpec) break;
                    if (ch(1) != '}') throw error("single '}' is not allowed");
                    if (raw.empty()) litLoc = here();
                    raw += '}';
                    step();
                    step();
                    continue;
                }
                if (raw.empty()) litLoc = here();
                if (c == '\\' && !tok.isRaw && ch(1) != '{' && ch(1) != '}' && ch(1) != '\0') {
                    raw += c;
                    step();
                }
                raw += ch();
                step();
            }
            flush();
        }

        // At '{': parses {expr[=][!conv][:spec]}.
        void parseField(std::vector<ExprPtr>& parts) {
            SourceLocation open = here();
            DepthGuard guard(p, p.prev(), "f-string nested too deeply");
            step();  // '{'
            size_t exprStart = i;
            int exprLine = line, exprCol = col;
            int depth = 0;
            char quote = 0;
            bool selfDoc = false;
            size_t exprEnd = 0;
            while (true) {
                if (done()) throw ScriptError("SyntaxError", "f-string: expecting '}'", open);
                char c = ch();
                if (quote) {
                    if (c == quote) quote = 0;
                    step();
                    continue;
                }
                if (c == '\'' || c == '"') {
                    quote = c;
                } else if (c == '(' || c == '[' || c == '{') {
                    ++depth;
                } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
                    --depth;
                } else if (depth == 0) {
                    if (c == '}' || c == ':') break;
                    if (c == '!' && ch(1) != '=') break;
                    if (c == '=' && ch(1) != '=' && i > exprStart) {
                        char before = body[i - 1];
                        if (before != '=' && before != '!' && before != '<' && before != '>') {
                            exprEnd = i;
                            selfDoc = true;
                            step();
                            break;
                        }
                    }
                }
                step();
            }
            if (!selfDoc) exprEnd = i;
            std::string_view exprText = std::string_view(body).substr(exprStart, exprEnd - exprStart);
            if (exprText.find_first_not_of(" \t\r\n\f") == std::string_view::npos)
                throw ScriptError("SyntaxError", "f-string: empty expression not allowed", open);
            LexerOptions opts;
            opts.startLine = exprLine;
            opts.startColumn = exprCol;
            opts.insideBrackets = true;
            Parser sub(tokenize(exprText, p.file_, opts), p.file_, p.depth_);
            auto fv = std::make_unique<FormattedValue>();
            fv->loc = open;
            if (!p.scopeReads_.empty()) sub.scopeReads_.emplace_back();  // the field's names are read by the function around it
            fv->value = sub.parseFStringField();
            if (!p.scopeReads_.empty()) {
                ScopeReads& into = p.scopeReads_.back();
                const ScopeReads& read = sub.scopeReads_.back();
                into.names.insert(into.names.end(), read.names.begin(), read.names.end());
                into.nested.insert(into.nested.end(), read.nested.begin(), read.nested.end());
                into.outside.insert(into.outside.end(), read.outside.begin(), read.outside.end());
            }
            if (selfDoc) {
                // `{x = }` prints "x = " then the value's repr: the blanks after '=' are the label's.
                while (!done() && (ch() == ' ' || ch() == '\t')) step();
                std::string label(body.substr(exprStart, i - exprStart));
                appendLiteral(parts, label, SourceLocation{p.file_, exprLine, exprCol}, line, col);
            }
            if (ch() == '!') {
                step();
                char conv = ch();
                if (conv != 'r' && conv != 's' && conv != 'a')
                    throw error("invalid conversion character: expected 's', 'r', or 'a'");
                fv->conversion = conv;
                step();
            }
            if (ch() == ':') {
                step();
                auto spec = std::make_unique<JoinedStr>();
                spec->loc = here();
                parseParts(spec->values, true);
                spec->endLine = line;
                spec->endColumn = col;
                fv->formatSpec = std::move(spec);
            }
            if (ch() != '}') throw ScriptError("SyntaxError", "f-string: expecting '}'", open);
            step();
            if (selfDoc && fv->conversion == 0 && !fv->formatSpec) fv->conversion = 'r';
            fv->endLine = line;
            fv->endColumn = col;
            parts.push_back(std::move(fv));
        }
    };

    std::vector<Token> toks_;
    size_t pos_ = 0;
    const std::string& file_;
    int depth_;
    bool inFString_ = false;  // parsing the expression of an f-string field
    // The definitions around the code being parsed, innermost last (none at module level): a
    // yield makes the innermost function a generator.
    struct Enclosing {
        FunctionDef* function = nullptr;  // null in a class body or a lambda
        bool lambda = false;
    };
    std::vector<Enclosing> enclosing_;
    std::vector<SourceLocation> yields_;  // every yield parsed, in order
    // Per function being parsed, innermost last: the names it reads (nested scopes' included) and
    // the spans of its nested scopes, less a comprehension's first iterable (read outside it).
    using Position = std::pair<int, int>;  // line, column
    struct ScopeReads {
        std::vector<std::pair<Position, std::string>> names;
        std::vector<std::pair<Position, Position>> nested, outside;
    };
    std::vector<ScopeReads> scopeReads_;
    Position position() const { return {cur().line, cur().column}; }
    void nestedScope(Position start) {
        if (!scopeReads_.empty()) scopeReads_.back().nested.push_back({start, position()});
    }
    static bool within(Position at, const std::vector<std::pair<Position, Position>>& spans) {
        return std::any_of(spans.begin(), spans.end(), [&](const auto& s) { return s.first <= at && at < s.second; });
    }
    // The function's nested reads, then its names passed on to the function around it.
    void finishScopeReads(FunctionDef& def, Position start) {
        ScopeReads reads = std::move(scopeReads_.back());
        scopeReads_.pop_back();
        for (const auto& [at, name] : reads.names) {
            def.reads.insert(name);
            if (within(at, reads.nested) && !within(at, reads.outside)) def.nestedReads.insert(name);
        }
        if (scopeReads_.empty()) return;
        ScopeReads& outer = scopeReads_.back();
        outer.names.insert(outer.names.end(), reads.names.begin(), reads.names.end());
        outer.nested.push_back({start, position()});
    }
};

void splitLines(std::string_view source, std::vector<std::string>& lines) {
    size_t start = 0;
    for (size_t i = 0; i < source.size(); ++i) {
        if (source[i] == '\n' || source[i] == '\r') {
            lines.emplace_back(source.substr(start, i - start));
            if (source[i] == '\r' && i + 1 < source.size() && source[i + 1] == '\n') ++i;
            start = i + 1;
        }
    }
    if (start < source.size()) lines.emplace_back(source.substr(start));
}

}  // namespace

std::unique_ptr<Module> parseScript(std::string_view source, const std::string& fileName) {
    auto module = std::make_unique<Module>();
    module->fileName = fileName;
    splitLines(source, module->lines);
    Parser parser(tokenize(source, module->fileName), module->fileName);
    module->body = parser.parseFile();
    return module;
}

ExprPtr parseExpression(std::string_view source, const std::string& fileName) {
    LexerOptions opts;
    opts.insideBrackets = true;
    Parser parser(tokenize(source, fileName, opts), fileName);
    return parser.parseSingleExpression();
}

}  // namespace fusescope
