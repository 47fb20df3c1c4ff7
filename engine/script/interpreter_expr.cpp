// Expression evaluation: operators, calls, subscripts, comprehensions, f-strings.
#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <new>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "core/autocast.h"
#include "dispatch/dispatcher.h"
#include "script/graph_break_kinds.h"
#include "script/interpreter.h"
#include "script/torch_lines.h"
#include "script/set_operations.h"
#include "script/types/bytes_type.h"
#include "script/types/indexing.h"
#include "script/types/numbers.h"
#include "script/types/type_slots.h"

namespace fusescope {

namespace {

// Puts the interpreter's current scope back as it was when the guard leaves, by an exception too.
struct ScopeRestore {
    ScopePtr& slot;
    ScopePtr saved;
    ~ScopeRestore() { slot = saved; }
};

// How Python dispatches an operator on two values: the left operand's type's slot, then the
// right's when its type is another; nullopt when neither answers (both NotImplemented).
template <class Slot, class Op>
std::optional<Value> leftThenRight(Slot TypeSlots::*slot, Interpreter& in, Op op, const Value& left, const Value& right) {
    const TypeSlots* leftType = in.touchedSlots(left);
    const TypeSlots* rightType = in.touchedSlots(right);
    if (leftType && leftType->*slot)
        if (auto result = (leftType->*slot)(in, op, left, right)) return result;
    if (rightType && rightType != leftType && rightType->*slot)
        if (auto result = (rightType->*slot)(in, op, left, right)) return result;
    return std::nullopt;
}

}  // namespace

// ---------------------------------------------------------------------- value conversion

IValue toIValue(const Value& value) {
    struct Visitor {
        IValue operator()(const None&) const { return IValue(); }
        IValue operator()(bool b) const { return IValue(b); }
        IValue operator()(int64_t i) const { return IValue(i); }
        IValue operator()(const SymbolicIntPtr& i) const { return IValue(i); }
        IValue operator()(const SymbolicFloatPtr& d) const { return IValue(d); }
        IValue operator()(double d) const { return IValue(d); }
        IValue operator()(const std::string& s) const { return IValue(s); }
        IValue operator()(const Tensor& t) const { return IValue(t); }
        IValue operator()(DType d) const { return IValue(d); }
        IValue operator()(const Device& d) const { return IValue(d); }
        IValue operator()(const ObjectPtr& o) const {
            if (auto* list = dynamic_cast<ListObject*>(o.get())) return seq(list->items, false);
            if (auto* tuple = dynamic_cast<TupleObject*>(o.get())) return seq(tuple->items, true);
            if (auto* format = dynamic_cast<MemoryFormatObject*>(o.get())) return IValue(format->code);
            throw ScriptError("TypeError", "an op argument cannot be a '" + o->typeName() + "'");
        }
        static IValue seq(const ValueList& items, bool isTuple) {
            NestingGuard nesting("while converting a nested list");
            IValueList out;
            for (const auto& v : items) out.push_back(toIValue(v));
            return isTuple ? IValue::tuple(std::move(out)) : IValue::list(std::move(out));
        }
    };
    return std::visit(Visitor{}, value.v);
}

Value fromIValue(const IValue& value) {
    struct Visitor {
        Value operator()(const None&) const { return Value(); }
        Value operator()(bool b) const { return Value(b); }
        Value operator()(int64_t i) const { return Value(i); }
        Value operator()(const SymbolicIntPtr& i) const { return Value(i); }
        Value operator()(const SymbolicFloatPtr& d) const { return Value(d); }
        Value operator()(double d) const { return Value(d); }
        Value operator()(const std::string& s) const { return Value(s); }
        Value operator()(const Tensor& t) const { return Value(t); }
        Value operator()(DType d) const { return Value(d); }
        Value operator()(const Device& d) const { return Value(d); }
        Value operator()(const std::shared_ptr<IValue::Sequence>& s) const {
            ValueList items;
            for (const auto& v : s->items) items.push_back(fromIValue(v));
            return s->isTuple ? makeTuple(std::move(items)) : makeList(std::move(items));
        }
    };
    return std::visit(Visitor{}, value.v);
}

// ------------------------------------------------------------------------------- ops

Value Interpreter::callOp(const std::string& opName, CallStyle style, const ValueList& args,
                          const std::vector<std::pair<std::string, Value>>& kwargs, const CallSite& site,
                          const std::string& symbol) {
    const OpRegistry& registry = OpRegistry::instance();
    const OpDef* op = registry.find(opName);
    if (!op) fail("NotImplementedError", "op '" + opName + "' is not supported by Fusescope");
    if (autocastActive()) {  // its inputs cast first, as PyTorch's autocast layer casts them (script/autocast.cpp)
        ValueList castArgs = args;
        std::vector<std::pair<std::string, Value>> castKwargs = kwargs;
        castForAutocast(*this, std::string(baseOpName(op->name)), castArgs, castKwargs, site);
        IValueList iargs;
        for (const auto& a : castArgs) iargs.push_back(toIValue(a));
        Kwargs ikwargs;
        for (const auto& [k, v] : castKwargs) ikwargs.emplace_back(k, toIValue(v));
        return runOp(*op, iargs, ikwargs, style, site, symbol);
    }
    IValueList iargs;
    for (const auto& a : args) iargs.push_back(toIValue(a));
    Kwargs ikwargs;
    for (const auto& [k, v] : kwargs) ikwargs.emplace_back(k, toIValue(v));
    return runOp(*op, iargs, ikwargs, style, site, symbol);
}

Value Interpreter::runOp(const OpDef& op, const IValueList& iargs, const Kwargs& ikwargs, CallStyle style, const CallSite& site,
                         const std::string& symbol) {
    const std::string& opName = op.name;
    try {
        return withNamedResults(op, fromIValue(dispatch(OpCall{op, iargs, ikwargs, style, symbol, site, tracer_})), site.where);
    } catch (Error& e) {
        e.setWhereIfUnknown(site.where);
        throw;
    } catch (const std::length_error& e) {  // a size no container can hold: still the op's error, at its line
        throw ScriptError("RuntimeError", fmt::format("{}: sizes too large ({})", opName, e.what()), site.where);
    } catch (const std::bad_alloc&) {
        throw ScriptError("RuntimeError", fmt::format("{}: not enough memory", opName), site.where);
    }
}

namespace {

// "(Tensor values, Tensor indices)" of the overload whose schema names its results (max.dim
// among max's): the last word of each; empty when no overload names them.
const std::vector<std::string>& resultNames(const OpDef& op) {
    static std::unordered_map<const OpDef*, std::vector<std::string>> names;  // op definitions live for the process
    static std::mutex mutex;
    std::lock_guard<std::mutex> lock(mutex);
    auto [it, inserted] = names.try_emplace(&op);
    if (!inserted) return it->second;
    const std::vector<const OpDef*> overloads = OpRegistry::instance().overloads(baseOpName(op.name));
    auto named = std::find_if(overloads.begin(), overloads.end(),
                              [](const OpDef* o) { return o->schema.find("-> (") != std::string::npos; });
    if (named == overloads.end()) return it->second;
    const std::string& schema = (*named)->schema;
    const size_t open = schema.find("-> (") + 4;
    const std::string list = schema.substr(open, schema.rfind(')') - open);
    for (size_t start = 0; start <= list.size();) {
        const size_t end = std::min(list.find(',', start), list.size());
        const std::string result = list.substr(start, end - start);
        it->second.push_back(result.substr(result.rfind(' ') + 1));
        start = end + 1;
    }
    return it->second;
}

}  // namespace

Value Interpreter::withNamedResults(const OpDef& op, Value results, const SourceLocation& where) {
    if (!results.as<TupleObject>()) return results;
    const std::vector<std::string>& names = resultNames(op);
    if (names.empty()) return results;
    ValueList fields;
    for (const std::string& name : names) fields.push_back(Value(name));
    if (returnTypes_.isNone()) returnTypes_ = loadLibraryModule("torch.return_types", where);
    CallArgs args{{Value(std::string(baseOpName(op.name))), makeTuple(std::move(fields)), std::move(results)}, {}, where};
    return call(returnTypes_.as<ModuleObject>()->attrs.at("_make"), args);
}

// Python's truth: the type's truth slot (CPython's nb_bool, then its length); true without one.
bool Interpreter::truthy(const Value& value) {
    const TypeSlots* type = touchedSlots(value);
    return !type->truth || type->truth(*this, value);
}

// ------------------------------------------------------------------------- sequences

// A container's snapshot from its items slot; an iterator's or instance's items taken one
// at a time, up to what memory can sensibly hold.
ValueList Interpreter::iterate(const Value& iterable) {
    if (const TypeSlots* type = touchedSlots(iterable); type->items && !type->next) return type->items(*this, iterable);
    ValueList out;
    forEachItem(iterable, [&](const Value& item) {
        out.push_back(item);
        if (out.size() > 10'000'000) fail("MemoryError", "iterator too long to materialise");
        return true;
    });
    return out;
}

int64_t Interpreter::length(const Value& value) {
    const TypeSlots* type = touchedSlots(value);
    if (!type->length) fail("TypeError", "object of type '" + pythonTypeName(value) + "' has no len()");
    return type->length(*this, value);
}

// ------------------------------------------------------------------------- expressions

Value constantValue(const Constant& c) {
    switch (c.type) {
    case ConstantKind::None: return Value();
    case ConstantKind::Bool: return Value(c.boolValue);
    case ConstantKind::Int: return Value(c.intValue);
    case ConstantKind::Float: return Value(c.floatValue);
    case ConstantKind::Str: return Value(c.strValue);
    case ConstantKind::Bytes: return makeBytes(c.strValue);
    case ConstantKind::Ellipsis: return Value(ObjectPtr(std::make_shared<EllipsisObject>()));
    }
    return Value();
}

Value Interpreter::eval(const Expr& expr) {
    switch (expr.kind) {
    case ExprKind::Name: {
        const std::string& id = expr.as<Name>().id;
        stack_.back().line = expr.loc.line;
        Value value = lookup(id, expr.loc);
        // A local that a nested scope reads is a cell (Python 3.11): Dynamo builds it at its load
        const FunctionObject* fn = stack_.back().callee;
        if (tracer_ && value.source && fn && fn->def && fn->def->nestedReads.count(id) && current_->vars.count(id))
            tracer_->onCellLoad(value);
        return value;
    }
    case ExprKind::Constant: return constantValue(expr.as<Constant>());
    case ExprKind::JoinedStr: return evalJoinedStr(expr.as<JoinedStr>());
    case ExprKind::Attribute: {
        const auto& a = expr.as<Attribute>();
        const bool lazy = std::exchange(lazyArgument_, nullptr) == &expr;  // this read only, not its object's
        Value object = eval(*a.value);
        site_ = siteOf(expr);
        stack_.back().pending = &expr;  // a graph break in the attribute's getter points at it
        stack_.back().line = expr.loc.line;
        realize(object);
        if (!lazy || !object.isObject()) return getAttribute(object, a.attr, a.attrLoc);
        lazyRead_ = {object.asObject().get(), a.attr};
        struct Clear {
            Interpreter& in;
            ~Clear() { in.lazyRead_ = {}; }
        } clear{*this};
        return getAttribute(object, a.attr, a.attrLoc);
    }
    case ExprKind::Subscript: {
        const auto& s = expr.as<Subscript>();
        Value object = eval(*s.value), index;
        {
            OperandScope held(*this);
            held.hold(object);
            index = eval(*s.index);
        }
        site_ = siteOf(expr);
        stack_.back().pending = &expr;
        stack_.back().line = expr.loc.line;
        realize(object), realize(index);
        Value result = evalSubscript(object, index);
        if (tracer_) tracer_->resumeAfter(expr, result);
        return result;
    }
    case ExprKind::Slice: {
        const auto& s = expr.as<Slice>();
        auto slice = std::make_shared<SliceObject>();
        if (s.lower) slice->start = eval(*s.lower).unsourced();
        if (s.upper) slice->stop = eval(*s.upper).unsourced();
        if (s.step) slice->step = eval(*s.step).unsourced();
        return Value(ObjectPtr(slice));
    }
    case ExprKind::Call: {
        Value result;
        try {
            result = evalCall(expr.as<Call>());
        } catch (...) {
            endUntracedCall(expr);
            throw;
        }
        endUntracedCall(expr);
        if (tracer_) tracer_->resumeAfter(expr, result);
        return result;
    }
    case ExprKind::BinOp: {
        const auto& b = expr.as<BinOp>();
        Value left = eval(*b.left), right;
        {
            OperandScope held(*this);
            held.hold(left);
            right = eval(*b.right);
        }
        stack_.back().line = expr.loc.line;
        realize(left), realize(right);
        return evalBinary(b.op, left, right, siteOf(expr));
    }
    case ExprKind::UnaryOp: {
        const auto& u = expr.as<UnaryOp>();
        if (testExpr_ != &expr || u.op != UnaryOperator::Not) return evalUnary(u);
        testExpr_ = u.operand.get();  // `if not x:` tests x itself, with a jump
        Value operand = eval(*u.operand);
        stack_.back().line = expr.loc.line;
        return Value(!truthy(operand));
    }
    case ExprKind::BoolOp: {
        const auto& b = expr.as<BoolOp>();
        const bool tested = testExpr_ == &expr;
        // As CPython: each operand but the last is tested; the last is the value, untested
        // (`None or tensor` gives the tensor without asking a tensor for its truth).
        for (size_t i = 0; i + 1 < b.values.size(); ++i) {
            if (tested) testExpr_ = b.values[i].get();
            Value result = eval(*b.values[i]);
            if (tested) stack_.back().line = expr.loc.line;
            bool t = truthy(result);
            if (b.op == BoolOperator::And ? !t : t) return result;
        }
        if (tested) testExpr_ = b.values.back().get();
        return eval(*b.values.back());
    }
    case ExprKind::Compare: {
        const auto& c = expr.as<Compare>();
        Value left = eval(*c.left);
        Value result;
        for (size_t i = 0; i < c.ops.size(); ++i) {
            Value right = eval(*c.comparators[i]);
            stack_.back().line = expr.loc.line;
            realize(left), realize(right);
            CallSite site = siteOf(expr);
            site.opLoc = c.opLocs[i];
            site.opLength = static_cast<int>(std::string(compareOperatorSymbol(c.ops[i])).size());
            result = evalCompare(c.ops[i], left, right, site);
            if (i + 1 < c.ops.size() && !truthy(result)) return result;
            left = right;
        }
        return result;
    }
    case ExprKind::IfExp: {
        const auto& e = expr.as<IfExp>();
        return testTruth(*e.test) ? eval(*e.body) : eval(*e.orelse);
    }
    case ExprKind::NamedExpr: {
        const auto& e = expr.as<NamedExpr>();
        Value value = eval(*e.value);
        const ScopeRestore restore{current_, current_};
        while (current_->isComprehension) current_ = current_->parent ? current_->parent : globals_;  // Python's rule
        store(e.target, value);
        return value;
    }
    case ExprKind::Lambda: {
        auto fn = std::make_shared<FunctionObject>();
        fn->lambda = &expr.as<Lambda>();
        fn->name = fn->codeName = "<lambda>";
        fn->qualname = fn->codeQualname = "<lambda>";
        for (const auto& p : fn->lambda->params)
            if (p.defaultValue) fn->defaults.push_back(eval(*p.defaultValue).unsourced());
        fn->closure = closureScope();
        fn->globals = globals_;
        return Value(ObjectPtr(fn));
    }
    case ExprKind::Set: return evalSetDisplay(expr.as<fusescope::Set>());
    case ExprKind::Tuple:
    case ExprKind::List: {
        const auto& elts = expr.kind == ExprKind::Tuple ? expr.as<Tuple>().elts : expr.as<List>().elts;
        ValueList items;
        for (const auto& e : elts) {
            if (e->kind == ExprKind::Starred) {
                for (const Value& v : iterate(eval(*e->as<Starred>().value))) items.push_back(v);
            } else {
                items.push_back(eval(*e));
                realize(items.back());  // what goes into a new container is taken as it is now
            }
        }
        return expr.kind == ExprKind::Tuple ? makeTuple(std::move(items)) : makeList(std::move(items));
    }
    case ExprKind::Dict: {
        const auto& d = expr.as<fusescope::Dict>();
        auto dict = std::make_shared<DictObject>();
        for (size_t i = 0; i < d.keys.size(); ++i) {
            if (!d.keys[i]) {
                Value other = eval(*d.values[i]);
                auto* o = other.as<DictObject>();
                if (!o) fail("TypeError", "'" + pythonTypeName(other) + "' object is not a mapping");
                for (const auto& kv : o->items) {
                    if (Value* slot = dict->find(kv.first)) *slot = kv.second;
                    else dict->items.push_back(kv);
                }
                continue;
            }
            Value key = eval(*d.keys[i]);
            Value value = eval(*d.values[i]);
            realize(key), realize(value);
            requireHashable(*this, key);  // after the value, as CPython inserts
            dict->set(key, value);
        }
        return Value(ObjectPtr(dict));
    }
    case ExprKind::ListComp: {
        const auto& c = expr.as<ListComp>();
        return evalComprehension(expr, *c.elt, c.generators, nullptr, false);
    }
    case ExprKind::GeneratorExp: {
        // Lazy, as Python's: the first iterable now, in this scope; the loop a step per item.
        const auto& c = expr.as<GeneratorExp>();
        Value first = evalIterable(*c.generators[0].iter);
        // iter() of it runs here, in this frame, at the expression's line (Python's GET_ITER): a
        // list or tuple is guarded here
        if (tracer_ && first.source && sequenceItems(first)) {
            stack_.back().line = expr.loc.line;
            tracer_->onLengthUse(first);
        }
        Frame frame{.function = "<genexpr>", .where = expr.loc, .qualname = qualifiedName("<genexpr>"), .self = Value()};
        auto loop = [this, &c, first] {
            comprehensionLoop(c.generators, first, [&] { yieldValue(eval(*c.elt)); });
            return Value();
        };
        return makeGenerator(std::move(frame), comprehensionScope(), globals_, std::move(loop), nullptr);
    }
    case ExprKind::Yield: {
        const auto& y = expr.as<Yield>();
        if (y.from) return yieldFrom(eval(*y.value));
        return yieldValue(y.value ? eval(*y.value) : Value());
    }
    case ExprKind::DictComp: {
        const auto& c = expr.as<DictComp>();
        return evalComprehension(expr, *c.key, c.generators, c.value.get(), true);
    }
    case ExprKind::SetComp: {
        const auto& c = expr.as<SetComp>();
        auto set = std::make_shared<SetObject>();
        Value items = evalComprehension(expr, *c.elt, c.generators, nullptr, false);
        for (const Value& v : *sequenceItems(items)) setAdd(*this, *set, v);
        return Value(ObjectPtr(set));
    }
    case ExprKind::Starred: fail("SyntaxError", "can't use starred expression here");
    case ExprKind::FormattedValue: fail("SyntaxError", "f-string field outside an f-string");
    }
    fail("SyntaxError", "unsupported expression");
}

Value Interpreter::evalJoinedStr(const JoinedStr& expr) {
    std::string out;
    for (const auto& part : expr.values) {
        if (part->kind == ExprKind::Constant) {
            out += part->as<Constant>().strValue;
            continue;
        }
        const auto& field = part->as<FormattedValue>();
        Value value = eval(*field.value);
        if (tracer_ && value.source && !value.isTensor()) tracer_->onInputUse(value);  // formatting reads it as a constant
        if (value.isTensor()) value = Value(realTensor(value.asTensor(), [] {
            return graph_breaks::fusescopeOnly("f-string formatting of a graph value", "f-string formatting needs a real tensor value");
        }));
        std::string spec;
        if (field.formatSpec) spec = valueStr(eval(*field.formatSpec));
        if (field.conversion == 'r' || field.conversion == 'a') value = Value(valueRepr(value));
        else if (field.conversion == 's') value = Value(valueStr(value));
        out += formatValue(value, spec);
    }
    return Value(out);
}

std::string Interpreter::formatValue(const Value& value, const std::string& spec) {
    if (auto text = callSpecial(value, "__format__", {Value(spec)})) {
        if (!text->isString()) fail("TypeError", "__format__ must return a str, not " + pythonTypeName(*text));
        return text->asString();
    }
    return formatWithSpec(value, spec);
}

Value Interpreter::evalSetDisplay(const fusescope::Set& display) {
    const auto& elts = display.elts;
    const bool starred = std::any_of(elts.begin(), elts.end(), [](const ExprPtr& e) { return e->kind == ExprKind::Starred; });
    if (!starred) {
        ValueList items;
        for (const auto& e : elts) items.push_back(eval(*e));
        const bool folded = elts.size() > 2 && std::all_of(elts.begin(), elts.end(), [](const ExprPtr& e) { return foldsToConstant(*e); });
        return Value(ObjectPtr(setDisplay(*this, items, folded)));
    }
    auto set = std::make_shared<SetObject>();
    for (const auto& e : elts) {
        if (e->kind == ExprKind::Starred) setUpdate(*this, *set, eval(*e->as<Starred>().value));
        else setAdd(*this, *set, eval(*e));
    }
    return Value(ObjectPtr(set));
}

Value Interpreter::evalIterable(const Expr& iterable) {
    if (iterable.kind != ExprKind::Set) return eval(iterable);
    const auto& elts = iterable.as<fusescope::Set>().elts;
    if (!std::all_of(elts.begin(), elts.end(), [](const ExprPtr& e) { return foldsToConstant(*e); })) return eval(iterable);
    ValueList items;
    for (const auto& e : elts) items.push_back(eval(*e));
    return makeTuple(constantSetIteration(*this, items));
}

ScopePtr Interpreter::comprehensionScope() const {
    auto scope = std::make_shared<Scope>();
    // It sees the enclosing function's locals, and the globals (at module level, through globals_).
    scope->parent = current_->isModule ? nullptr : current_;
    scope->isComprehension = true;
    return scope;
}

void Interpreter::comprehensionLoop(const std::vector<Comprehension>& generators, const Value& first,
                                    const std::function<void()>& produce) {
    std::function<void(size_t, const Value&)> loop = [&](size_t level, const Value& iterable) {
        const Comprehension& gen = generators[level];
        forEachItem(iterable, [&](const Value& item) {
            step(gen.iter->loc);  // an item is a step: a long comprehension is cancellable and bounded
            assign(*gen.target, item);
            for (const auto& cond : gen.ifs)
                if (!truthy(eval(*cond))) return true;
            if (level + 1 == generators.size()) produce();
            else loop(level + 1, evalIterable(*generators[level + 1].iter));
            return true;
        });
    };
    loop(0, first);
}

Value Interpreter::evalComprehension(const Expr& comprehension, const Expr& elt, const std::vector<Comprehension>& generators,
                                     const Expr* dictValue, bool isDict) {
    Value first = evalIterable(*generators[0].iter);  // in the enclosing scope
    const ScopeRestore restore{current_, current_};
    current_ = comprehensionScope();
    // Python 3.11 runs it as a function of its own (<listcomp>), a frame Dynamo's stacks show
    const char* name = comprehension.kind == ExprKind::ListComp ? "<listcomp>" : isDict ? "<dictcomp>" : "<setcomp>";
    stack_.back().comprehensions.push_back({name, comprehension.loc.line});
    struct Leave {  // by index: calls in the loop may move the stack
        std::vector<Frame>& stack;
        std::size_t frame;
        ~Leave() { stack[frame].comprehensions.pop_back(); }
    } leave{stack_, stack_.size() - 1};
    ValueList results;
    auto dict = std::make_shared<DictObject>();
    comprehensionLoop(generators, first, [&] {
        if (!isDict) {
            results.push_back(eval(elt));
            return;
        }
        Value key = eval(elt);
        Value value = eval(*dictValue);
        requireHashable(*this, key);
        dict->set(key, value);
    });
    if (isDict) return Value(ObjectPtr(dict));
    return makeList(std::move(results));
}

// One of torch's functions written in Python that Dynamo traces (F.pad; the library's copy
// starts where PyTorch's table has the function). The library's other free functions stand for
// torch's functions Dynamo puts in the graph (F.embedding), consuming their arguments. One
// library file may stand for a package of PyTorch's (torch/nn.py for torch/nn/modules/*.py).
bool Interpreter::isTracedTorchCode(const FunctionObject& fn) const {
    const std::string& file = fn.definedAt().file;
    if (isScriptFile(file) || dynamoHandles(fn)) return false;  // F.dropout2d: one op to Dynamo, though PyTorch's lines of it are known
    std::optional<TorchPlace> place = fn.def ? torchPlaceOf(fn.codeQualname, "") : std::nullopt;
    const std::string package = file.ends_with(".py") ? file.substr(0, file.size() - 3) + "/" : "";
    return place && (place->file == file || (!package.empty() && place->file.starts_with(package)));
}

bool Interpreter::runningTracedCode() const {
    const Frame& f = stack_.back();
    if (f.callee) return isScriptFile(f.callee->definedAt().file) || isTracedTorchCode(*f.callee);
    if (isGeneratorExpressionFrame(f)) return isScriptFile(f.where.file) || !torchModuleAt(f).empty();
    return isScriptFile(f.where.file);
}

bool Interpreter::compilesAsTorchFrame(const FunctionObject& fn) const {
    if (!isTracedTorchCode(fn)) return false;
    const std::string_view file = torchPlaceOf(fn.codeQualname, "")->file;
    return std::find(torchFrameFiles().begin(), torchFrameFiles().end(), file) != torchFrameFiles().end();
}

namespace {

// A function Dynamo inlines: the script's, or one of torch's written in Python that it traces into.
bool inlinedFunction(const Interpreter& in, const FunctionObject& fn) {
    return in.isScriptFile(fn.definedAt().file) || in.isTracedTorchCode(fn);
}

// Python code Dynamo inlines: such a function, a method of an object (an nn.Module's
// included), a class or an instance (its __call__).
bool runsPythonCode(const Interpreter& in, const Value& callee) {
    if (auto* bound = callee.as<BoundMethodObject>()) return bound->function.as<FunctionObject>() && bound->self.as<InstanceObject>();
    if (auto* fn = callee.as<FunctionObject>()) return inlinedFunction(in, *fn);
    return callee.as<ClassObject>() || callee.as<InstanceObject>();
}

}  // namespace

// Dynamo inlines a function with its __defaults__: their type and count are guarded where the
// call takes a positional default, each default it takes where it is used (G['f'].__defaults__[0]).
// A method of an instance is read from its class's own dict (dict(type(L['self']).__dict__)['f']).
void Interpreter::guardDefaults(const Value& callee, CallArgs& args) {
    SourcePtr function = callee.source;
    auto* fn = callee.as<FunctionObject>();
    if (auto* bound = callee.as<BoundMethodObject>()) {
        auto* instance = bound->self.as<InstanceObject>();
        fn = bound->function.as<FunctionObject>();
        const Value* own = instance && fn && bound->self.source ? instance->cls->dict->findString(fn->name) : nullptr;
        if (!own || own->as<FunctionObject>() != fn) return;  // inherited, or not the class's (Dynamo walks the MRO)
        function = keySource(typeDictSource(typeSource(bound->self.source)), fn->name);
    }
    if (!fn || !function || !inlinedFunction(*this, *fn)) return;
    Value defaults = fn->defaultsTuple();
    if (!defaults.as<TupleObject>()) return;
    args.defaultsSource = attrSource(function, "__defaults__");
}

// An argument a builtin or torch function takes. A torch function's or tensor method's list or
// tuple input is read whole (x.sum(dims)): its length and items are guarded, as Dynamo's wrapped
// list is; Python's builtins (zip, iter) read theirs lazily, where the code takes the items.
void Interpreter::consume(const Value& callee, const Value& argument) {
    realize(argument);
    auto* builtin = callee.as<BuiltinFunction>();
    const bool torchOp = builtin && builtin->name.find('.') != std::string::npos;
    if (tracer_ && torchOp && argument.source && (argument.as<ListObject>() || argument.as<TupleObject>()))
        for (const Value& item : iterate(argument)) realize(item);
}

// Inside a call Dynamo runs on fake tensors, a torch op (a builtin, or one written here in
// Python) reads its SymFloat arguments as numbers, as PyTorch's argument parser does: each is
// specialized where the op is called (TraceHooks::floatReadByOp).
void Interpreter::readFloatsAsNumbers(const Value& callee, CallArgs& args) {
    const auto* fn = callee.as<FunctionObject>();
    const auto* builtin = callee.as<BuiltinFunction>();
    if (!(fn && dynamoHandles(*fn)) && !(builtin && builtin->name.find('.') != std::string::npos)) return;
    std::optional<std::string> madeIn;  // PyTorch's place of this call, found once it is needed
    auto read = [&](Value& v) {
        if (!v.symbolicFloat()) return;
        if (!madeIn) {
            const Frame& f = stack_.back();
            SourceLocation here = f.where;
            if (f.line) here.line = f.line;
            std::optional<TorchPlace> place = torchPlaceAt(f, here);
            std::string_view file = place ? place->file : std::string_view();
            if (file.starts_with("torch/")) file.remove_prefix(6);
            madeIn = place ? fmt::format("{}:{} in {}", file, place->line, f.function) : "";
        }
        if (std::optional<Value> number = tracer_->floatReadByOp(v, *madeIn)) v = std::move(*number);
    };
    for (Value& a : args.args) read(a);
    for (auto& [name, v] : args.kwargs) read(v);
}

Interpreter::OperandScope::OperandScope(Interpreter& in) : in_(in) {
    const Frame& frame = in.stack_.back();
    active_ = in.tracer_ && frame.traced && frame.inlineDepth == 0;
    frame_ = in.stack_.size() - 1;
    size_ = frame.operands.size();
}

Interpreter::OperandScope::~OperandScope() {
    if (active_ && frame_ < in_.stack_.size()) in_.stack_[frame_].operands.resize(size_);
}

void Interpreter::OperandScope::hold(Value& value) {
    if (active_) in_.stack_[frame_].operands.push_back(&value);
}

// The function a call of `callee` runs the code of, where Dynamo inlines it (null otherwise),
// and how many of its parameters the call binds before the arguments (a bound method's self).
std::pair<const FunctionObject*, std::size_t> inlinedCallee(const Interpreter& in, const Value& callee) {
    if (!runsPythonCode(in, callee)) return {nullptr, 0};
    if (auto* bound = callee.as<BoundMethodObject>()) return {bound->function.as<FunctionObject>(), 1};
    return {callee.as<FunctionObject>(), 0};
}

// Whether the argument `at` (a position, or a keyword's name) binds to a named parameter of
// `fn`: one the function reads by its name, not one packed into *args or **kwargs.
bool bindsToNamedParameter(const FunctionObject& fn, std::size_t position, const std::string& keyword) {
    if (!fn.def) return false;
    std::size_t positional = 0;
    for (const Param& p : fn.def->params) {
        const bool byPosition = p.kind == ParamKind::PositionalOnly || p.kind == ParamKind::Positional;
        if (keyword.empty() ? byPosition && positional++ == position : p.name == keyword && p.kind != ParamKind::PositionalOnly &&
                                                                        (byPosition || p.kind == ParamKind::KeywordOnly))
            return true;
    }
    return false;
}

Value Interpreter::evalCall(const Call& call) {
    Value callee = eval(*call.func);
    if (tracer_ && callee.source) tracer_->onCalleeUse(callee);
    CallArgs args;
    args.where = call.loc;
    // An attribute read as an inlined function's argument (self.kernel_size) is a lazy value to
    // Dynamo: guarded where that function reads its parameter, not at all if it never does.
    auto isAttribute = [](const Expr& e) { return e.kind == ExprKind::Attribute; };
    const bool attributeArguments = tracer_ && (std::any_of(call.args.begin(), call.args.end(), [&](const ExprPtr& a) { return isAttribute(*a); }) ||
                                                std::any_of(call.keywords.begin(), call.keywords.end(), [&](const auto& k) { return isAttribute(*k.value); }));
    const auto [inlined, bound] = attributeArguments ? inlinedCallee(*this, callee) : std::pair<const FunctionObject*, std::size_t>{};
    auto evalArgument = [&](const Expr& a, std::size_t position, const std::string& keyword) {
        if (inlined && a.kind == ExprKind::Attribute && bindsToNamedParameter(*inlined, position + bound, keyword))
            lazyArgument_ = &a;
        return eval(a);
    };
    {
        OperandScope held(*this);
        held.hold(callee);
        // The arguments made so far are on the stack too (reserved: they stay where they are
        // made; a *args spreads into an unknown count, and is not held).
        const bool spreads = std::any_of(call.args.begin(), call.args.end(), [](const ExprPtr& a) { return a->kind == ExprKind::Starred; });
        args.args.reserve(call.args.size());
        for (const auto& a : call.args) {
            if (a->kind == ExprKind::Starred) {
                for (const Value& v : iterate(eval(*a->as<Starred>().value))) args.args.push_back(v);
            } else {
                args.args.push_back(spreads ? eval(*a) : evalArgument(*a, args.args.size(), ""));
                if (!spreads) held.hold(args.args.back());
            }
        }
    }
    for (const auto& k : call.keywords) {
        Value v = k.name.empty() ? eval(*k.value) : evalArgument(*k.value, 0, k.name);
        if (k.name.empty()) {
            auto* d = v.as<DictObject>();
            if (!d) fail("TypeError", "argument after ** must be a mapping, not " + pythonTypeName(v));
            if (tracer_ && v.source) tracer_->onLengthUse(v);  // the call has as many keywords
            for (const auto& kv : d->items) {
                if (!kv.first.isString()) fail("TypeError", "keywords must be strings");
                args.kwargs.emplace_back(kv.first.asString(), dictItem(v, kv.first.asString(), kv.second));
            }
        } else {
            args.kwargs.emplace_back(k.name, v);
        }
    }
    site_ = siteOf(call);
    stack_.back().pending = &call;
    stack_.back().line = call.loc.line;
    if (tracer_ && stack_.back().traced && stack_.back().inlineDepth == 0 && stack_.back().comprehensions.empty())
        if (std::optional<Value> result = tracer_->callAtBreak(call, callee, args)) return *result;
    if (tracer_ && stack_.back().traced)
        if (std::optional<Value> result = tracer_->runInsteadOfTracing(callee, args)) return *result;
    realize(callee);
    if (std::optional<Value> polyfill = dynamoPolyfill(callee, args)) callee = *polyfill;
    if (tracer_ && (callee.source || callee.as<BoundMethodObject>())) guardDefaults(callee, args);
    if (tracer_ && callee.source && callee.as<FunctionObject>()) args.calleeSource = callee.source;
    if (tracer_ && inDynamoHandledCall()) readFloatsAsNumbers(callee, args);
    if (tracer_ && !runsPythonCode(*this, callee)) {  // a function written in Python is inlined: its arguments are consumed where it uses them
        for (const Value& a : args.args) consume(callee, a);
        for (const auto& [name, v] : args.kwargs) consume(callee, v);
    }
    std::optional<CallArgs> callAgain;  // a call the trace may abandon and make again (CallRestart)
    if (tracer_ && stack_.back().traced && stack_.back().inlineDepth == 0 && runsPythonCode(*this, callee)) callAgain = args;
    try {
        return this->call(callee, args);
    } catch (const CallRestart& restart) {
        if (restart.call != &call || stack_.size() != restart.frame + 1 || !callAgain) throw;
        setGradEnabled(restart.gradMode);
        return *tracer_->callAtBreak(call, callee, *callAgain);
    } catch (Error& e) {
        e.setWhereIfUnknown(call.loc);
        reportAtUserLine(e, call.loc);
        throw;
    }
}

// Python's binary_op: the left operand's type's binary slot, then the right's when its type
// is another (each gives nullopt for NotImplemented); then a sequence's concat (+) or
// repeat (*); else TypeError.
Value Interpreter::evalBinary(BinaryOperator op, const Value& left, const Value& right, const CallSite& site) {
    site_ = site;
    if (auto result = leftThenRight(&TypeSlots::binary, *this, op, left, right)) return *result;
    const TypeSlots* leftType = slotsOf(left);
    const TypeSlots* rightType = slotsOf(right);
    if (op == BinaryOperator::Add && leftType && leftType->concat) return leftType->concat(*this, left, right);
    if (op == BinaryOperator::Mult && leftType && leftType->repeat) return leftType->repeat(*this, left, right);
    if (op == BinaryOperator::Mult && rightType && rightType->repeat) return rightType->repeat(*this, right, left);
    fail("TypeError", std::string("unsupported operand type(s) for ") + binaryOperatorSymbol(op) + ": '" + pythonTypeName(left) +
                          "' and '" + pythonTypeName(right) + "'");
}

Value Interpreter::evalCompare(CompareOperator op, const Value& left, const Value& right, const CallSite& site) {
    site_ = site;
    switch (op) {
    case CompareOperator::Is:
    case CompareOperator::IsNot: {
        bool same;
        if (left.isObject() && right.isObject()) same = left.asObject() == right.asObject();
        else if (left.isTensor() && right.isTensor()) same = left.asTensor().impl() == right.asTensor().impl();
        else if (left.isNone() || right.isNone()) same = left.isNone() && right.isNone();
        else same = pythonTypeName(left) == pythonTypeName(right) && valuesEqual(left, right);
        return Value(op == CompareOperator::Is ? same : !same);
    }
    case CompareOperator::In:
    case CompareOperator::NotIn: {
        // The container's contains slot (CPython's sq_contains); without one, its items are
        // searched for one equal to the value.
        const TypeSlots* type = touchedSlots(right);
        bool found = false;
        if (type->contains) {
            found = type->contains(*this, right, left);
        } else {
            std::string notIterable = "'" + pythonTypeName(right) + "' object is not iterable";
            try {
                forEachItem(right, [&](const Value& v) {
                    found = valuesEqual(v, left);
                    return !found;
                });
            } catch (const ScriptError& e) {
                if (e.kind() != "TypeError" || e.what() != notIterable) throw;
                fail("TypeError", "argument of type '" + pythonTypeName(right) + "' is not iterable");  // CPython's words here
            }
        }
        return Value(op == CompareOperator::In ? found : !found);
    }
    default: break;
    }
    // Rich comparison: the left operand's type's compare slot, then the right's when its type
    // is another (each gives nullopt for NotImplemented); == and != fall back to equality of
    // values, an ordering to TypeError.
    if (auto result = leftThenRight(&TypeSlots::compare, *this, op, left, right)) return *result;
    if (op == CompareOperator::Eq) return Value(valuesEqual(left, right));
    if (op == CompareOperator::NotEq) return Value(!valuesEqual(left, right));
    fail("TypeError", std::string("'") + compareOperatorSymbol(op) + "' not supported between instances of '" + pythonTypeName(left) +
                          "' and '" + pythonTypeName(right) + "'");
}

bool Interpreter::testTruth(const Expr& test, bool pending) {
    testExpr_ = &test;
    Value value = eval(test);
    testExpr_ = nullptr;
    if (pending) stack_.back().pending = &test;
    stack_.back().line = test.loc.line;
    return truthy(value);
}

Value Interpreter::evalUnary(const UnaryOp& expr) {
    Value operand = eval(*expr.operand);
    realize(operand);
    return evalUnary(expr.op, operand, siteOf(expr));
}

Value Interpreter::evalUnary(UnaryOperator op, const Value& operand, const CallSite& site) {
    site_ = site;
    if (op == UnaryOperator::Not) return Value(!truthy(operand));
    const TypeSlots* type = touchedSlots(operand);
    if (type->unary)
        if (auto result = type->unary(*this, op, operand)) return *result;
    fail("TypeError", std::string("bad operand type for unary ") + unaryOperatorSymbol(op) + ": '" + pythonTypeName(operand) + "'");
}

Value Interpreter::evalInPlace(BinaryOperator op, const Value& target, const Value& value, const CallSite& site) {
    site_ = site;
    if (const TypeSlots* type = touchedSlots(target); type->inplace)
        if (std::optional<Value> changed = type->inplace(*this, op, target, value)) return *changed;
    return evalBinary(op, target, value, site);
}

// ------------------------------------------------------------------------- subscripts

Value Interpreter::evalSubscript(const Value& object, const Value& index) {
    const TypeSlots* type = touchedSlots(object);
    if (!type || !type->getitem) fail("TypeError", "'" + pythonTypeName(object) + "' object is not subscriptable");
    return type->getitem(*this, object, index);
}

Value Interpreter::indexTensor(const Value& tensor, const Value& index) {
    ValueList parts;
    if (auto* tuple = index.as<TupleObject>()) parts = tuple->items;
    else parts.push_back(index);
    if (isAdvancedIndex(parts)) return callComposite("_index_with_tensors", {tensor, index});
    int64_t consuming = 0;
    for (const Value& p : parts)
        if (isIntLike(p) || p.as<SliceObject>()) ++consuming;
    Value result = tensor;
    int64_t dim = 0;
    int64_t rank = tensor.asTensor().dim();
    if (consuming > rank)
        fail("IndexError", fmt::format("too many indices for tensor of dimension {}", rank));
    bool sawEllipsis = false;
    for (const Value& p : parts) {
        if (p.isNone()) {
            result = callOp("unsqueeze", CallStyle::Method, {result, Value(dim)}, {}, site_);
            ++dim;
        } else if (p.as<EllipsisObject>()) {
            if (sawEllipsis) fail("IndexError", "an index can only have a single ellipsis ('...')");
            sawEllipsis = true;
            dim += rank - consuming;
        } else if (isIntLike(p)) {
            result = callOp("select", CallStyle::Method, {result, Value(dim), Value(intOf(p))}, {}, site_);
        } else if (auto* s = p.as<SliceObject>()) {
            if (s->start.isNone() && s->stop.isNone() && s->step.isNone()) {
                ++dim;
                continue;
            }
            Value start = s->start.isNone() ? Value(int64_t{0}) : s->start;
            Value stop = s->stop.isNone() ? Value(std::numeric_limits<int64_t>::max()) : s->stop;
            Value step = s->step.isNone() ? Value(int64_t{1}) : s->step;
            result = callOp("slice", CallStyle::Method, {result, Value(dim), start, stop, step}, {}, site_);
            ++dim;
        } else {
            fail("IndexError", "only integers, slices (`:`), ellipsis (`...`) and None are valid tensor indices");
        }
    }
    if (result.isTensor() && result.asTensor().impl() == tensor.asTensor().impl())
        result = callOp("slice", CallStyle::Method, {result, Value(int64_t{0}), Value(int64_t{0}),
                                                      Value(std::numeric_limits<int64_t>::max()), Value(int64_t{1})},
                        {}, site_);
    return result;
}

void Interpreter::assignSubscript(const Value& object, const Value& index, const Value& value) {
    const TypeSlots* type = touchedSlots(object);
    if (!type || !type->setitem) fail("TypeError", "'" + pythonTypeName(object) + "' object does not support item assignment");
    type->setitem(*this, object, index, value);
}

void Interpreter::deleteSubscript(const Value& object, const Value& index) {
    const TypeSlots* type = touchedSlots(object);
    if (!type || !type->delitem) fail("TypeError", "'" + pythonTypeName(object) + "' object doesn't support item deletion");
    type->delitem(*this, object, index);
}

}  // namespace fusescope
