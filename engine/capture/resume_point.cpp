#include "capture/resume_point.h"

#include <algorithm>
#include <functional>

namespace fusescope {

namespace {

using Names = std::set<std::string>;

void forEachSubexpression(const Expr& e, const std::function<void(const Expr&)>& visit) {
    auto each = [&](const std::vector<ExprPtr>& list) {
        for (const auto& x : list)
            if (x) visit(*x);
    };
    auto maybe = [&](const ExprPtr& x) {
        if (x) visit(*x);
    };
    auto generators = [&](const std::vector<Comprehension>& gens) {
        for (const auto& g : gens) maybe(g.target), maybe(g.iter), each(g.ifs);
    };
    switch (e.kind) {
    case ExprKind::Name:
    case ExprKind::Constant: break;
    case ExprKind::JoinedStr: each(e.as<JoinedStr>().values); break;
    case ExprKind::FormattedValue: maybe(e.as<FormattedValue>().value), maybe(e.as<FormattedValue>().formatSpec); break;
    case ExprKind::Attribute: maybe(e.as<Attribute>().value); break;
    case ExprKind::Subscript: maybe(e.as<Subscript>().value), maybe(e.as<Subscript>().index); break;
    case ExprKind::Slice: maybe(e.as<Slice>().lower), maybe(e.as<Slice>().upper), maybe(e.as<Slice>().step); break;
    case ExprKind::Call: {
        const auto& c = e.as<Call>();
        maybe(c.func), each(c.args);
        for (const auto& k : c.keywords) maybe(k.value);
        break;
    }
    case ExprKind::BinOp: maybe(e.as<BinOp>().left), maybe(e.as<BinOp>().right); break;
    case ExprKind::UnaryOp: maybe(e.as<UnaryOp>().operand); break;
    case ExprKind::BoolOp: each(e.as<BoolOp>().values); break;
    case ExprKind::Compare: maybe(e.as<Compare>().left), each(e.as<Compare>().comparators); break;
    case ExprKind::IfExp: maybe(e.as<IfExp>().test), maybe(e.as<IfExp>().body), maybe(e.as<IfExp>().orelse); break;
    case ExprKind::NamedExpr: maybe(e.as<NamedExpr>().value); break;
    case ExprKind::Lambda: maybe(e.as<Lambda>().body); break;
    case ExprKind::Tuple: each(e.as<Tuple>().elts); break;
    case ExprKind::List: each(e.as<List>().elts); break;
    case ExprKind::Dict: each(e.as<Dict>().keys), each(e.as<Dict>().values); break;
    case ExprKind::ListComp: maybe(e.as<ListComp>().elt), generators(e.as<ListComp>().generators); break;
    case ExprKind::GeneratorExp: maybe(e.as<GeneratorExp>().elt), generators(e.as<GeneratorExp>().generators); break;
    case ExprKind::DictComp:
        maybe(e.as<DictComp>().key), maybe(e.as<DictComp>().value), generators(e.as<DictComp>().generators);
        break;
    case ExprKind::Set: each(e.as<Set>().elts); break;
    case ExprKind::SetComp: maybe(e.as<SetComp>().elt), generators(e.as<SetComp>().generators); break;
    case ExprKind::Starred: maybe(e.as<Starred>().value); break;
    case ExprKind::Yield: maybe(e.as<Yield>().value); break;
    }
}

// The expressions a statement evaluates itself (its nested blocks aside).
std::vector<const Expr*> ownExpressions(const Stmt& s) {
    std::vector<const Expr*> out;
    auto add = [&](const ExprPtr& e) {
        if (e) out.push_back(e.get());
    };
    switch (s.kind) {
    case StmtKind::Expr: add(s.as<ExprStmt>().value); break;
    case StmtKind::Assign:
        add(s.as<Assign>().value);
        for (const auto& t : s.as<Assign>().targets) add(t);
        break;
    case StmtKind::AugAssign: add(s.as<AugAssign>().target), add(s.as<AugAssign>().value); break;
    case StmtKind::AnnAssign: add(s.as<AnnAssign>().value), add(s.as<AnnAssign>().target); break;
    case StmtKind::If: add(s.as<If>().test); break;
    case StmtKind::For: add(s.as<For>().iter), add(s.as<For>().target); break;
    case StmtKind::While: add(s.as<While>().test); break;
    case StmtKind::Return: add(s.as<Return>().value); break;
    case StmtKind::With:
        for (const auto& item : s.as<With>().items) add(item.context), add(item.target);
        break;
    case StmtKind::Assert: add(s.as<Assert>().test), add(s.as<Assert>().msg); break;
    case StmtKind::Raise: add(s.as<Raise>().exc), add(s.as<Raise>().cause); break;
    case StmtKind::Delete:
        for (const auto& t : s.as<Delete>().targets) add(t);
        break;
    case StmtKind::FunctionDef:
        for (const auto& d : s.as<FunctionDef>().decorators) add(d);
        for (const auto& p : s.as<FunctionDef>().params) add(p.defaultValue);
        break;
    case StmtKind::ClassDef:
        for (const auto& d : s.as<ClassDef>().decorators) add(d);
        for (const auto& b : s.as<ClassDef>().bases) add(b);
        break;
    default: break;
    }
    return out;
}

std::vector<const StmtList*> nestedBlocks(const Stmt& s) {
    switch (s.kind) {
    case StmtKind::If: return {&s.as<If>().body, &s.as<If>().orelse};
    case StmtKind::For: return {&s.as<For>().body, &s.as<For>().orelse};
    case StmtKind::While: return {&s.as<While>().body, &s.as<While>().orelse};
    case StmtKind::With: return {&s.as<With>().body};
    case StmtKind::Try: {
        std::vector<const StmtList*> blocks{&s.as<Try>().body, &s.as<Try>().orelse, &s.as<Try>().finalbody};
        for (const auto& h : s.as<Try>().handlers) blocks.push_back(&h.body);
        return blocks;
    }
    default: return {};  // a def's or class's body is another scope
    }
}

bool contains(const Expr& e, const Expr* target) {
    if (&e == target) return true;
    bool found = false;
    forEachSubexpression(e, [&](const Expr& child) { found = found || contains(child, target); });
    return found;
}

// Names loaded in `e` (a target's subscripts and attribute bases included) that `keep` admits.
void loads(const Expr& e, Names& out, const std::function<bool(const Expr&)>& keep = {}) {
    if (e.kind == ExprKind::Name && e.as<Name>().ctx == ExprContext::Load && (!keep || keep(e))) out.insert(e.as<Name>().id);
    forEachSubexpression(e, [&](const Expr& child) { loads(child, out, keep); });
}

// Names an assignment target binds, left to right.
void binds(const Expr& target, std::vector<std::string>& out) {
    if (target.kind == ExprKind::Name) out.push_back(target.as<Name>().id);
    if (target.kind == ExprKind::Tuple)
        for (const auto& e : target.as<Tuple>().elts) binds(*e, out);
    if (target.kind == ExprKind::List)
        for (const auto& e : target.as<List>().elts) binds(*e, out);
    if (target.kind == ExprKind::Starred) binds(*target.as<Starred>().value, out);
}

// Names a statement binds when it runs to its end (a loop's or with's target included), in order.
std::vector<std::string> bound(const Stmt& s) {
    std::vector<std::string> out;
    switch (s.kind) {
    case StmtKind::Assign:
        for (const auto& t : s.as<Assign>().targets) binds(*t, out);
        break;
    case StmtKind::AugAssign: binds(*s.as<AugAssign>().target, out); break;
    case StmtKind::AnnAssign:
        if (s.as<AnnAssign>().value) binds(*s.as<AnnAssign>().target, out);
        break;
    case StmtKind::For: binds(*s.as<For>().target, out); break;
    case StmtKind::With:
        for (const auto& item : s.as<With>().items)
            if (item.target) binds(*item.target, out);
        break;
    case StmtKind::FunctionDef: out.push_back(s.as<FunctionDef>().name); break;
    case StmtKind::ClassDef: out.push_back(s.as<ClassDef>().name); break;
    case StmtKind::Import:
        for (const auto& a : s.as<Import>().names) out.push_back(a.asname.empty() ? a.name.substr(0, a.name.find('.')) : a.asname);
        break;
    case StmtKind::ImportFrom:
        for (const auto& a : s.as<ImportFrom>().names) out.push_back(a.asname.empty() ? a.name : a.asname);
        break;
    case StmtKind::Delete:
        for (const auto& t : s.as<Delete>().targets) binds(*t, out);
        break;
    default: break;
    }
    return out;
}

// `live` without what `s` binds.
Names withoutBound(const Stmt& s, const Names& live) {
    Names out = live;
    for (const std::string& name : bound(s)) out.erase(name);
    return out;
}

void readsAnywhere(const Stmt& s, Names& out) {
    for (const Expr* e : ownExpressions(s)) loads(*e, out);
    for (const StmtList* block : nestedBlocks(s))
        for (const auto& inner : *block) readsAnywhere(*inner, out);
}

Names liveFrom(const StmtList& list, size_t first, Names live);

// What is live before `s`, given what is live after it (a backward step of the analysis).
Names liveBefore(const Stmt& s, const Names& after) {
    Names live;
    switch (s.kind) {
    case StmtKind::Return:
    case StmtKind::Raise: break;  // nothing after them runs
    case StmtKind::If: {
        const auto& i = s.as<If>();
        live = liveFrom(i.body, 0, after);
        Names other = liveFrom(i.orelse, 0, after);
        live.insert(other.begin(), other.end());
        break;
    }
    case StmtKind::For:
    case StmtKind::While:
    case StmtKind::With:
    case StmtKind::Try:  // whatever they read, and what follows them
        live = after;
        readsAnywhere(s, live);
        return live;
    case StmtKind::AugAssign:  // x += y reads x too
        live = after;
        for (const std::string& name : bound(s)) live.insert(name);
        break;
    default: live = withoutBound(s, after); break;
    }
    for (const Expr* e : ownExpressions(s)) loads(*e, live);
    return live;
}

Names liveFrom(const StmtList& list, size_t first, Names live) {
    for (size_t i = list.size(); i-- > first;) live = liveBefore(*list[i], live);
    return live;
}

// The statements from the function's body down to the one whose own expressions hold `at`,
// each with the list it is in.
struct Step {
    const StmtList* list;
    size_t index;
};
bool findPath(const StmtList& list, const Expr& at, std::vector<Step>& path) {
    for (size_t i = 0; i < list.size(); ++i) {
        const Stmt& s = *list[i];
        path.push_back(Step{&list, i});
        for (const Expr* e : ownExpressions(s))
            if (contains(*e, &at)) return true;
        for (const StmtList* block : nestedBlocks(s))
            if (findPath(*block, at, path)) return true;
        path.pop_back();
    }
    return false;
}

bool after(const Expr& e, const Expr& at) {
    return e.loc.line > at.endLine || (e.loc.line == at.endLine && e.loc.column >= at.endColumn);
}

}  // namespace

std::optional<Names> liveAfter(const FunctionDef& def, const Expr& at, std::optional<bool> branch) {
    std::vector<Step> path;
    if (!findPath(def.body, at, path)) return std::nullopt;
    // Dynamo resumes only outside loops and try blocks (the frame is skipped there); inside a
    // with block it enters the context manager again in the resume function (here the block
    // goes on as it was, its manager's exit where the block ends).
    for (const Step& step : path)
        if (const StmtKind k = (*step.list)[step.index]->kind; k != StmtKind::If && k != StmtKind::With && &step != &path.back())
            return std::nullopt;

    // What is live after the statement the break is in: the rest of each enclosing block.
    Names out;
    for (size_t i = path.size(); i-- > 0;) out = liveFrom(*path[i].list, path[i].index + 1, std::move(out));

    const Stmt& s = *(*path.back().list)[path.back().index];
    if (branch) {  // the if's test itself broke: the code goes on in the branch taken
        if (s.kind != StmtKind::If || s.as<If>().test.get() != &at) return std::nullopt;
        return liveFrom(*branch ? s.as<If>().body : s.as<If>().orelse, 0, std::move(out));
    }
    if (at.kind != ExprKind::Call && at.kind != ExprKind::Subscript) return std::nullopt;
    auto laterLoad = [&at](const Expr& e) { return after(e, at); };
    Names live;
    switch (s.kind) {
    case StmtKind::Return: break;
    case StmtKind::Expr: live = out; break;
    case StmtKind::Assign:
    case StmtKind::AugAssign:
    case StmtKind::AnnAssign: {
        live = withoutBound(s, out);
        // A target's subscript or attribute base is loaded after the value.
        std::vector<const Expr*> targets;
        if (s.kind == StmtKind::Assign)
            for (const auto& t : s.as<Assign>().targets) targets.push_back(t.get());
        for (const Expr* t : targets)
            if (t->kind != ExprKind::Name) loads(*t, live);
        break;
    }
    case StmtKind::If: {
        live = liveFrom(s.as<If>().body, 0, out);
        Names other = liveFrom(s.as<If>().orelse, 0, out);
        live.insert(other.begin(), other.end());
        break;
    }
    default: return std::nullopt;
    }
    for (const Expr* e : ownExpressions(s))
        if (contains(*e, &at)) loads(*e, live, laterLoad);
    return live;
}

std::vector<std::string> localsInBindingOrder(const FunctionDef& def) {
    std::vector<std::string> order;
    auto add = [&](const std::string& name) {
        if (std::find(order.begin(), order.end(), name) == order.end()) order.push_back(name);
    };
    for (ParamKind kind : {ParamKind::PositionalOnly, ParamKind::Positional, ParamKind::KeywordOnly, ParamKind::VarArgs,
                           ParamKind::VarKeywords})
        for (const Param& p : def.params)
            if (p.kind == kind) add(p.name);
    std::function<void(const StmtList&)> walk = [&](const StmtList& list) {
        for (const auto& s : list) {
            for (const std::string& name : bound(*s)) add(name);
            for (const StmtList* block : nestedBlocks(*s)) walk(*block);
        }
    };
    walk(def.body);
    return order;
}

}  // namespace fusescope
