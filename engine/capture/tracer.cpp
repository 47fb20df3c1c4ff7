#include "capture/tracer.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <functional>
#include <set>

#include <fmt/format.h>

#include "autograd/argument_gradients.h"
#include "capture/fake_run_error.h"
#include "capture/guard_tree.h"
#include "capture/resume_point.h"
#include "core/autograd_node.h"
#include "core/device_context.h"
#include "core/grad_mode.h"
#include "core/source_marker.h"
#include "dispatch/dispatcher.h"
#include "graph/graph_json.h"
#include "graph/graph_printer.h"
#include "lower/index_expr.h"
#include "ops/op_devices.h"
#include "ops/op_registry.h"
#include "profile/profiler.h"
#include "script/script_library.h"
#include "script/graph_break_kinds.h"
#include "script/torch_names.h"

namespace fusescope {

namespace {

std::string strip(const std::string& s) {
    size_t b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return "";
    size_t e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

bool isInplaceOp(const std::string& name) { return !name.empty() && name.back() == '_'; }

// "    y = torch.relu(x) * 2\n        ~~~~~~~~~~^^^": the line and CPython's marker under the call,
// anchored at an operator, or at a call's arguments or a subscript's index (the bracket that
// closes the expression, matched back).
std::string markedLine(const std::string& rawLine, const CallSite& site) {
    int indent = static_cast<int>(rawLine.find_first_not_of(" \t"));
    if (indent < 0) return "";
    const int size = static_cast<int>(rawLine.find_last_not_of(" \t\r") + 1);
    const int start = std::clamp(site.where.column - 1, indent, size);
    const int end = std::clamp(site.endColumn > 0 ? site.endColumn - 1 : size, start, size);
    int left = -1, right = end;
    if (site.opLoc.known() && site.opLoc.line == site.where.line) {
        left = site.opLoc.column - 1;
        right = left + site.opLength;
    } else if (end > start && (rawLine[end - 1] == ')' || rawLine[end - 1] == ']')) {
        const char close = rawLine[end - 1], open = close == ')' ? '(' : '[';
        int depth = 0;
        for (int c = end - 1; c >= start && left < 0; --c) {
            depth += rawLine[c] == close ? 1 : rawLine[c] == open ? -1 : 0;
            if (depth == 0) left = c;
        }
        if (left <= start) left = -1;  // a parenthesised whole: no anchor
    }
    return "    " + strip(rawLine) + "\n    " + anchoredMarker(indent, start, end, left, right);
}

}  // namespace

Tracer::Tracer(Interpreter& interp, TraceContext context)
    : interp_(interp), ctx_(std::move(context)), graph_(std::make_shared<Graph>()), graphStartNs_(Profiler::nowNs()) {
    previousHooks_ = interp_.tracer();
    interp_.setTracer(this);
}

Tracer::~Tracer() { interp_.setTracer(previousHooks_); }

void Tracer::log(const std::string& artifact, const std::string& message) const {
    if (ctx_.recording && ctx_.logger) ctx_.logger->artifact(artifact, ctx_.compileId, message);
}

namespace {

// An nn.Module's own dicts, which Dynamo reads without running Module.__getattr__.
bool isModuleDict(const Value& value) {
    static const std::set<std::string> names = {"_parameters", "_modules", "_buffers"};
    return value.as<DictObject>() && value.source && value.source->kind == Source::Kind::Attr && names.count(value.source->name);
}

// The module's name from its source: L['self']._modules['blocks']._modules['0'] is
// "blocks.0" under the compiled module; G['model']._modules['fc'] is "model.fc".
std::string modulePath(const Source& source) {
    switch (source.kind) {
    case Source::Kind::Local: return source.name == "self" ? "" : source.name;
    case Source::Kind::Global: return source.name;
    case Source::Kind::Key: {
        bool child = source.base->kind == Source::Kind::Attr && source.base->name == "_modules";
        std::string base = modulePath(child ? *source.base->base : *source.base);
        return base.empty() ? source.name : base + "." + source.name;
    }
    case Source::Kind::Attr: {
        std::string base = modulePath(*source.base);
        return base.empty() ? source.name : base + "." + source.name;
    }
    case Source::Kind::Item: return modulePath(*source.base) + "." + std::to_string(source.index);
    case Source::Kind::ObjectDict:
    case Source::Kind::Type:
    case Source::Kind::TypeDict:
    case Source::Kind::KeyAt:
    case Source::Kind::IntKey: return modulePath(*source.base);
    case Source::Kind::GlobalWeakRef: return "";
    }
    return "";
}

// Dynamo's nn_module_stack: the forward of every nn.Module the traced code is inside, outermost
// first (the compiled module itself, L['self'], is the graph and not listed).
std::vector<ModuleScope> moduleStackOf(const Interpreter& interp) {
    std::vector<ModuleScope> scopes;
    for (const Frame& f : interp.stack()) {
        if (!f.traced || !f.callee || f.callee->name != "forward" || !f.self.source) continue;
        const ClassPtr& cls = *instanceClass(f.self);
        if (!cls->isNnModule()) continue;
        std::string path = modulePath(*f.self.source);
        if (path.empty()) continue;
        if (!scopes.empty() && scopes.back().path == path) continue;
        scopes.push_back(ModuleScope{path, cls->name});
    }
    return scopes;
}

// Dynamo's ConstantVariable.is_literal for a tuple: its items, nested, all constants.
bool isLiteralTuple(const Value& value) {
    auto* tuple = value.as<TupleObject>();
    if (!tuple || value.as<SizeObject>()) return false;
    return std::all_of(tuple->items.begin(), tuple->items.end(), [](const Value& item) {
        return item.isNumber() || item.isString() || item.isNone() || isLiteralTuple(item);
    });
}

// A parameter or buffer read through its module (L['self']._modules['fc']._parameters['weight']):
// Dynamo builds these eagerly, so guards them where they are loaded.
bool isModuleStateRead(const Source& source) {
    return source.kind == Source::Kind::Key && source.base &&
           (source.base->name == "_parameters" || source.base->name == "_buffers");
}

}  // namespace

std::string Tracer::currentLine() const {
    return strip(interp_.sourceLine(interp_.userLocation()));
}

std::string Tracer::userCodeNote() const {
    const auto& frames = interp_.stack();
    auto user = std::find_if(frames.rbegin(), frames.rend(), [&](const Frame& f) { return interp_.isScriptFile(f.where.file); });
    if (user == frames.rend()) return "";
    return fmt::format("{}  # {}:{} in {}", strip(interp_.sourceLine(user->where)), user->where.file, user->where.line, user->function);
}

bool Tracer::isLazy(const Tensor& t) const { return t.defined() && lazy_.count(t.impl()) > 0; }

Device Tracer::deviceOf(const Tensor& t) const {
    auto it = t.defined() ? lazy_.find(t.impl()) : lazy_.end();
    return it != lazy_.end() && it->second.device ? *it->second.device : t.device();
}

// --------------------------------------------------------------------------- guards

// An item of a tuple matched whole (an nn.Module's stride) is a constant: nothing more to guard.
bool Tracer::insideMatchedTuple(const Source& source) const {
    if (matchedTuples_.empty()) return false;
    for (const Source* s = &source; s->kind == Source::Kind::Item; s = s->base.get())  // only items are inside
        if (matchedTuples_.count(s->base->str())) return true;
    return false;
}

namespace {

// A guard on what a library module's globals or the builtins hold (G['__import_torch_dot_nn_dot_functional'].pad).
bool onLibraryGlobals(const Source& source) {
    const Source* root = &source;
    while (root->base) root = root->base.get();
    return root->kind == Source::Kind::Global && (root->name.starts_with("__import_") || root->name.starts_with("__builtins_dict"));
}

}  // namespace

bool Tracer::addGuard(Guard guard) {
    // Inside a call Dynamo makes itself, its code is not traced: nothing it reads of its own is guarded.
    if (guard.source && interp_.inDynamoHandledCall() && onLibraryGlobals(*guard.source)) return false;
    if (guard.kind == Guard::Kind::TypeMatch && !hookDicts_.empty() && hookDicts_.count(guard.source->str())) return false;
    return keepGuard(madeHere(std::move(guard)));
}

Guard Tracer::madeHere(Guard guard) const {
    guard.createdBy = currentLine();
    guard.createdAtLine = interp_.userLocation().line;
    if (ctx_.recording) guard.userStack = guardStack();  // a replay's guards are not kept
    return guard;
}

std::string Tracer::guardKey(const Guard& guard) {
    const bool byCode = guard.kind == Guard::Kind::SizeRelation || guard.kind == Guard::Kind::ObjectAliasing ||
                        guard.kind == Guard::Kind::DictContains || guard.kind == Guard::Kind::FloatRelation ||
                        guard.kind == Guard::Kind::StrideRelation || guard.kind == Guard::Kind::NoHasattr ||
                        guard.kind == Guard::Kind::Hasattr;
    return guard.typeLabel() + "|" + guard.guardedName() + "|" + std::to_string(guard.dim) + "|" +
           std::to_string(static_cast<int>(guard.kind)) + (byCode ? guard.code() : "");
}

bool Tracer::keepGuard(Guard guard) {
    if (!guardKeys_.insert(guardKey(guard)).second) return false;
    // A range's lower bound raised again replaces the bound it raises (ShapeEnv keeps the range).
    if (raisesLowerBound(guard))
        if (const Guard* raised = raisedBound(guard.source->str(), guard.dim); raised && raised->rhs->constant <= guard.rhs->constant)
            eraseGuard(raised);
    // A size's upper bound joined to its range (Tracer::sizeRelation) is that range, in its place,
    // and the lower bound it took.
    if (guard.kind == Guard::Kind::SizeRelation && guard.count > 0) {
        if (const Guard* raised = raisedBound(guard.source->str(), guard.dim)) eraseGuard(raised);
        for (size_t i = 0; i < guards_.size(); ++i) {
            Guard& range = guards_[i];
            if (range.kind != Guard::Kind::DimAtLeast || range.source->str() != guard.source->str() || range.dim != guard.dim) continue;
            guardKeys_.erase(guardKey(range));
            range = std::move(guard);
            guardReads_[i] = firstRead_.size();
            return true;
        }
    }
    guards_.push_back(std::move(guard));
    guardReads_.push_back(firstRead_.size());
    return true;
}

void Tracer::eraseGuard(const Guard* guard) {
    const auto at = static_cast<long>(guard - guards_.data());
    guardKeys_.erase(guardKey(*guard));
    guards_.erase(guards_.begin() + at);
    guardReads_.erase(guardReads_.begin() + at);
}

const Guard* Tracer::raisedBound(const std::string& source, int64_t dim) const {
    const Guard* raised = nullptr;
    for (const Guard& g : guards_)
        if (raisesLowerBound(g) && g.dim == dim && g.source->str() == source) raised = &g;
    return raised;
}

void Tracer::dropGuards(const std::string& source, std::initializer_list<Guard::Kind> kinds) {
    for (size_t i = guards_.size(); i-- > 0;) {
        const Guard& g = guards_[i];
        if (g.source->str() != source || std::find(kinds.begin(), kinds.end(), g.kind) == kinds.end()) continue;
        guardKeys_.erase(guardKey(g));
        guards_.erase(guards_.begin() + static_cast<long>(i));
        guardReads_.erase(guardReads_.begin() + static_cast<long>(i));
    }
}

// Dynamo's mro_attr_source: each class walked past is guarded not to define the name, once per
// class and name in a compile: the instance's own as type(x), a later one as type(x).__mro__[i].
void Tracer::onInheritedMethod(const Value& instance, const ClassObject& definer, const std::string& name) {
    const ClassObject& own = *instance.as<InstanceObject>()->cls;
    if (!ctx_.recording) return;
    for (size_t i = 0; i < own.mro.size() && own.mro[i] != &definer; ++i) {
        if (!absentGuarded_.emplace(own.mro[i], name).second) continue;
        Value dict = own.mro[i]->dictValue();
        dict.source = typeDictSource(mroEntrySource(instance.source, i));
        onContainsUse(dict, Value(name), false);
    }
}

// Dynamo's mro_source_cache: what a class along the MRO holds under a name is named the way the
// trace first reached it, whatever object it is reached from later (one guard for them all).
SourcePtr Tracer::mroOwnerSource(const ClassObject& owner, const std::string& name, const SourcePtr& reached) {
    return mroSources_.try_emplace({&owner, name}, reached).first->second;
}

void Tracer::onCellLoad(const Value& value) {
    if (!ctx_.recording) return;
    if (value.isTensor()) tensorLoads_.try_emplace(value.source->str(), guardStack());
    else onRealize(value);
}

void Tracer::onRealize(const Value& value) {
    // A tensor input is wrapped where the code first uses it as a value (x.shape, x[0]), which
    // may be before an op reads it: its TENSOR_MATCH names that place.
    if (value.isTensor() && ctx_.recording && !lifted_.count(value.asTensor().impl()))
        tensorLoads_.try_emplace(value.source->str(), guardStack());
    if (unrealized_.empty()) return;  // the common case: no string built
    auto it = unrealized_.find(value.source->str());
    if (it == unrealized_.end()) return;
    std::vector<StackFrame> stack = guardStack();
    for (Guard& g : guards_)
        if (g.source && g.source->str() == *it) g.userStack = stack;
    unrealized_.erase(it);
}

void Tracer::onRefusedModuleCall(const Value& module, const ValueList& args) {
    if (!ctx_.recording || pendingResume_) return;
    if (module.source) dropGuards(module.source->str(), {Guard::Kind::TypeMatch});
    for (const Value& a : args) realizeTensorInput(a);
}

// A value on Dynamo's stack at a break (a breaking call's argument), wrapped as the stack is
// handed to the code that runs on: an input tensor is guarded, a list or tuple by its type and
// length, a dict by its type, and the tensors they hold in turn; their other items stay
// unguarded (Dynamo's lazy variables, never read).
void Tracer::realizeStackValue(const Value& value) {
    if (value.isTensor()) return realizeTensorInput(value);
    if (!value.source) return;
    auto realizeItem = [this](Value item, SourcePtr source) {
        if (!item.isTensor()) return;
        item.source = std::move(source);
        onInputUse(item);
        realizeTensorInput(item);
    };
    if (const ValueList* items = sequenceItems(value)) {
        onLengthUse(value);
        for (std::size_t i = 0; i < items->size(); ++i) realizeItem((*items)[i], itemSource(value.source, static_cast<int64_t>(i)));
    } else if (const auto* dict = value.as<DictObject>(); dict && !isModuleDict(value)) {
        Guard type;
        type.kind = Guard::Kind::TypeMatch;
        type.source = value.source;
        type.typeName = pythonTypeName(value);
        addGuard(std::move(type));
        for (const auto& [key, item] : dict->items)
            if (key.isString()) realizeItem(item, keySource(value.source, key.asString()));
    }
}

void Tracer::realizeTensorInput(const Value& value) {
    if (!value.isTensor() || !value.source || !tensorSources_.count(value.asTensor().impl())) return;
    onRealize(value);
    Tensor meta;
    liftTensor(value.asTensor(), meta);
}

void Tracer::onListMethod(const Value& list, const std::string& name) {
    if (!ctx_.recording) return;
    onLengthUse(list);
    static const std::set<std::string, std::less<>> changing = {"append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse"};
    if (!changing.count(name)) return;
    for (const auto& [seen, asRead] : changedLists_)
        if (seen.source->str() == list.source->str()) return;
    changedLists_.emplace_back(list, makeList(ValueList(*sequenceItems(list))));
}

void Tracer::onReturn(const Value& result) {
    if (!ctx_.recording || pendingResume_) return;
    // Dynamo rebuilds a list the code changed as the frame returns, each item from where it was
    // read: the constants it held by their place in it, those the code added past its end by their
    // own source (type(G['m']).__name__), guarded here.
    auto isConstant = [](const Value& v) { return v.isNumber() || v.isString() || v.isNone(); };
    for (const auto& [list, asRead] : changedLists_) {
        const ValueList& items = *sequenceItems(asRead);
        for (size_t i = 0; i < items.size(); ++i)
            if (isConstant(items[i])) onInputUse(interp_.withSource(items[i], itemSource(list.source, static_cast<int64_t>(i))));
        const ValueList& now = *sequenceItems(list);
        for (size_t i = items.size(); i < now.size(); ++i)  // (an item kept from an earlier trace may hold a stale source)
            if (isConstant(now[i]) && now[i].source) onInputUse(now[i]);
    }
    returned(result);
}

void Tracer::returned(const Value& result) {
    if (const ValueList* items = sequenceItems(result)) {
        for (const Value& item : *items) returned(item);
        return;
    }
    if (!result.isTensor() || !result.source || !tensorSources_.count(result.asTensor().impl())) return;
    onRealize(result);
    Tensor meta;
    liftTensor(result.asTensor(), meta);
}

std::vector<Guard> Tracer::guards() const {
    auto rank = [this](std::size_t i) -> std::pair<int, std::size_t> {
        const Guard& g = guards_[i];
        bool shape = g.typeLabel() == "SHAPE_ENV";
        auto read = firstRead_.find(g.source->str());
        return {shape, read != firstRead_.end() ? std::min(read->second, guardReads_[i]) : guardReads_[i]};
    };
    std::vector<std::size_t> order(guards_.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rank(a) < rank(b); });
    std::vector<Guard> out;
    for (std::size_t i : order) out.push_back(guards_[i]);
    return out;
}

void Tracer::onStackInput(const Value& value) { registerInput(value); }

void Tracer::onInputUse(const Value& value) {
    if (!value.source || insideMatchedTuple(*value.source)) return;
    if (ctx_.recording) firstRead_.try_emplace(value.source->str(), firstRead_.size());
    registerInput(value);
}

void Tracer::registerInput(const Value& value) {
    if (value.isTensor()) {
        const Tensor& t = value.asTensor();
        auto& sources = tensorSources_[t.impl()];
        for (const auto& s : sources)
            if (s->str() == value.source->str()) return;
        if (!sources.empty() && staticTensors_.count(t.impl())) return;  // matched by id: the same object however reached
        if (!sources.empty()) {  // one tensor reached two ways (f(x, x), tied weights): they must stay one
            if (ctx_.recording) {
                Guard g;
                g.kind = Guard::Kind::ObjectAliasing;
                g.source = sources.front();
                g.otherSource = value.source;
                addGuard(std::move(g));
            }
            return;
        }
        sources.push_back(value.source);
        if (ctx_.recording && isModuleStateRead(*value.source)) tensorLoads_.try_emplace(value.source->str(), guardStack());
        if (auto lifted = lifted_.find(t.impl()); lifted != lifted_.end())
            addTensorGuards(t, value.source, lifted->second.placeholder->meta[0], lifted->second.strides, lifted->second.placeholder);
        return;
    }
    if (auto* instance = value.as<InstanceObject>()) {  // its methods and class attributes were traced
        Guard g;
        g.source = value.source;
        if (isOptimizer(*instance->cls)) {  // Dynamo's OptimizerVariable is the object itself
            optimizerSources_.insert(value.source->str());
            g.kind = Guard::Kind::IdMatch;
            g.constant = value.unsourced();
            g.typeName = instance->cls->displayName();
        } else {
            g.kind = Guard::Kind::TypeMatch;
            g.typeName = instance->cls->name;
            g.classObject = instance->cls;
        }
        if (addGuard(std::move(g)) && ctx_.recording) unrealized_.insert(value.source->str());
        return;
    }
    if (value.as<ClassObject>() || value.as<TypeObject>()) return onCalleeUse(value);  // a class the code read: by id (Dynamo's CLASS_MATCH)
    if (value.source->kind == Source::Kind::Attr && value.source->name == "param_groups" && value.as<ListObject>() &&
        optimizerSources_.count(value.source->base->str()))
        return guardParamGroups(value);
    if (isModuleDict(value)) {  // as Dynamo's Module.__getattr__ reads them: by type
        Guard g;
        g.kind = Guard::Kind::TypeMatch;
        g.source = value.source;
        g.typeName = "dict";
        addGuard(std::move(g));
        return;
    }
    if (isLiteralTuple(value) && ctx_.resolve && guardSourceRank(*value.source, GuardTreeScope{{}, ctx_.resolve, {}}) >= 12) {
        // Dynamo's wrap_listlike: an nn.Module's tuple of constants (a conv's stride) is matched whole
        Guard g;
        g.kind = Guard::Kind::Constant;
        g.source = value.source;
        g.constant = value.unsourced();
        const bool made = addGuard(std::move(g));
        onLengthUse(value);
        if (made && ctx_.recording) unrealized_.insert(value.source->str());
        matchedTuples_.insert(value.source->str());
        return;
    }
    if (value.isNumber() || value.isString() || value.isNone() || value.isDType()) {
        Guard g;
        g.kind = Guard::Kind::Constant;
        g.source = value.source;
        g.constant = value.unsourced();
        g.moduleInt = value.isInt() && !value.isBool() && ctx_.resolve &&
                      guardSourceRank(*value.source, GuardTreeScope{{}, ctx_.resolve, {}}) >= 12;
        if (addGuard(std::move(g)) && ctx_.recording && !isModuleStateRead(*value.source)) unrealized_.insert(value.source->str());
    }
}

// Dynamo's DictGuardManager: the dict's keys, each by its index (its type and length with them).
void Tracer::guardKeyOrder(const Value& dict) {
    ValueList keys;
    for (const auto& [key, item] : dict.as<DictObject>()->items) keys.push_back(key);
    Guard order;
    order.kind = Guard::Kind::KeyOrder;
    order.source = dict.source;
    order.constant = makeList(std::move(keys));
    addGuard(std::move(order));
}

void Tracer::onDictWalk(const Value& dict) {
    auto* items = dict.as<DictObject>();
    if (!dict.source || !items) return;
    if (hookDicts_.count(dict.source->str())) {  // a full one is guarded by its length already; an empty one walked is a DictGuardManager
        if (items->items.empty()) guardKeyOrder(dict);
        return;
    }
    const bool constantKeys = std::all_of(items->items.begin(), items->items.end(), [](const auto& kv) {
        return kv.first.isString() || (kv.first.isInt() && !kv.first.isBool());
    });
    if (constantKeys) guardKeyOrder(dict);
    else onLengthUse(dict);
}

void Tracer::onLengthUse(const Value& value) {
    const ValueList* items = sequenceItems(value);
    auto* dict = value.as<DictObject>();
    if (!value.source || (!items && !dict)) return;
    if (dict && !dict->items.empty() && hookDicts_.count(value.source->str())) return;  // its length is guarded already
    if (isModuleDict(value)) return guardKeyOrder(value);  // walked in order (a Sequential's modules)
    Guard type;
    type.kind = Guard::Kind::TypeMatch;
    type.source = value.source;
    type.typeName = pythonTypeName(value);
    Guard length;
    length.kind = Guard::Kind::Length;
    length.source = value.source;
    length.count = static_cast<int64_t>(items ? items->size() : dict->items.size());
    length.typeName = dict ? "dict" : type.typeName;  // any dict's (an OrderedDict's too) is DICT_LENGTH
    addGuard(std::move(type));
    addGuard(std::move(length));
}

// Dynamo's NNModuleHooksDictVariable: a full hooks dict is guarded by its length (its keys, the
// hooks' handle ids, are not: the same hook on another module has another id) and each hook
// by position, where the module's call read it; an empty one is not guarded at all
// (skip_nnmodule_hook_guards), though a later `if d:` or `k in d` is.
void Tracer::onModuleHooksRead(const Value& dict) {
    auto* items = dict.as<DictObject>();
    if (!dict.source || !items || !hookDicts_.insert(dict.source->str()).second || items->items.empty() || !ctx_.recording) return;
    ValueList keys;
    for (const auto& [key, hook] : items->items) keys.push_back(key);
    Guard order;
    order.kind = Guard::Kind::KeyOrder;
    order.source = dict.source;
    order.constant = makeList(std::move(keys));
    order.keysUnguarded = true;
    addGuard(std::move(order));
    for (size_t i = 0; i < items->items.size(); ++i)
        onCalleeUse(interp_.withSource(items->items[i].second, keyAtSource(dict.source, static_cast<int64_t>(i))));
}

// Its length, and its values: Dynamo asks whether the dict is a constant, which builds each value
// (a constant's value, a function's __code__, a tensor's TENSOR_MATCH are guarded there). A
// module's hooks dict is guarded by its own rules (onModuleHooksRead).
void Tracer::onDictTruth(const Value& dict) {
    onLengthUse(dict);
    if (hookDicts_.count(dict.source->str())) return;
    realizeValues(dict);
}

void Tracer::realizeValues(const Value& dict) {
    const auto items = dict.as<DictObject>()->items;  // guards run no code, but each read is sourced anew
    for (size_t i = 0; i < items.size(); ++i) {
        Value item = interp_.dictItem(dict, items[i].first, items[i].second, i);
        if (!item.source) continue;
        if (item.as<FunctionObject>()) onCalleeUse(item);
        else onRealize(item);
    }
}

void Tracer::onContainsUse(const Value& dict, const Value& key, bool found) {
    if (!dict.source || !dict.as<DictObject>() || !(key.isString() || key.isNumber() || key.isNone())) return;
    const Source::Kind kind = dict.source->kind;
    // Dynamo's OptimizerVariable has _init_group as a method of its own (it runs it itself): no
    // check that the instance shadows it.
    if (kind == Source::Kind::ObjectDict && optimizerSources_.count(dict.source->base->str()) && key.isString() &&
        key.asString() == "_init_group")
        return;
    if (kind != Source::Kind::ObjectDict && kind != Source::Kind::TypeDict) {  // a dict the code read as a value: Dynamo checks its type
        Guard type;
        type.kind = Guard::Kind::TypeMatch;
        type.source = dict.source;
        type.typeName = pythonTypeName(dict);
        addGuard(std::move(type));
    }
    Guard g;
    g.kind = Guard::Kind::DictContains;
    g.source = dict.source;
    g.constant = key.unsourced();
    g.count = found ? 1 : 0;
    addGuard(std::move(g));
}

// Dynamo's call_obj_hasattr on a user object: HASATTR, which for a missing attribute is NO_HASATTR.
void Tracer::onHasAttribute(const Value& object, const std::string& name, bool found) {
    if (!object.source || !object.as<InstanceObject>()) return;
    Guard g;
    g.kind = found ? Guard::Kind::Hasattr : Guard::Kind::NoHasattr;
    g.source = object.source;
    g.constant = Value(name);
    addGuard(std::move(g));
}

// A replay keeps no guards: the module and callee guards are made while recording only (a
// replay calls these for every torch.* call of the traced code).
void Tracer::onModuleUse(const Value& module) {
    if (!module.source || !ctx_.recording) return;
    const std::string& name = module.as<ModuleObject>()->name;
    moduleNames_.emplace(module.source->str(), name);
    // One module reached two ways (the script's F, and torch.nn.functional's own globals, which
    // Fusescope reads through a view of the library module): by id the first way, aliased after.
    auto [first, added] = modulesByName_.try_emplace(name, module.source);
    if (!added && !name.empty() && first->second->str() != module.source->str()) {
        Guard g;
        g.kind = Guard::Kind::ObjectAliasing;
        g.source = first->second;
        g.otherSource = module.source;
        addGuard(std::move(g));
        return;
    }
    Guard g;
    g.kind = Guard::Kind::IdMatch;
    g.source = module.source;
    g.constant = module.unsourced();
    g.typeName = module.asObject()->typeName();
    addGuard(std::move(g));
}

bool Tracer::onNnModuleCall(bool readGlobalHooks) {
    Value module = interp_.torchModuleSourced("torch.nn.modules.module");
    onModuleUse(module);
    // in Dynamo's order (UnspecializedNNModuleVariable.call_function)
    for (const char* hooks : {"_global_backward_pre_hooks", "_global_backward_hooks", "_global_forward_hooks", "_global_forward_pre_hooks"}) {
        const Value* dict = readGlobalHooks ? module.as<ModuleObject>()->find(hooks) : nullptr;
        if (!dict) continue;
        if (ctx_.recording) {  // as Dynamo builds it: by type, with its hooks
            Guard g;
            g.kind = Guard::Kind::TypeMatch;
            g.source = attrSource(module.source, hooks);
            g.typeName = pythonTypeName(*dict);
            addGuard(std::move(g));
            if (dict->as<DictObject>()) realizeValues(interp_.withSource(*dict, attrSource(module.source, hooks)));
        }
        if (dict->as<DictObject>() && !dict->as<DictObject>()->items.empty()) return true;  // Dynamo's any() stops there
    }
    return false;
}

SourcePtr Tracer::firstSourceOf(const Value& module) {
    auto [first, added] = moduleSources_.try_emplace(module.asObject().get(), module.source);
    if (added || first->second->str() == module.source->str()) return nullptr;
    if (ctx_.recording) {
        Guard g;
        g.kind = Guard::Kind::ObjectAliasing;
        g.source = first->second;
        g.otherSource = module.source;
        addGuard(std::move(g));
    }
    return first->second;
}

SourcePtr Tracer::builtinSource(const std::string& name) {
    return ctx_.builtinsDict.empty() ? nullptr : keySource(globalSource(ctx_.builtinsDict), name);
}

namespace {

// A function of the library's Python standard modules stands for CPython's object, which
// Dynamo does not trace into (its BUILTIN_SKIPLIST, or C code): it matches the object by id.
// itertools' are classes in C (<class 'itertools.chain'>); the others, functions.
std::optional<std::string> standardLibraryType(const FunctionObject& fn) {
    auto module = fn.globals ? fn.globals->vars.find("__name__") : decltype(fn.globals->vars.end()){};
    if (!fn.globals || module == fn.globals->vars.end() || !module->second.isString() || module->second.asString().starts_with("torch"))
        return std::nullopt;
    const std::string& name = module->second.asString();
    const auto& library = scriptLibrarySources();
    if (std::none_of(library.begin(), library.end(), [&](const LibraryModuleSource& s) { return s.module == name; })) return std::nullopt;
    if (name == "itertools") return "itertools." + fn.name;
    return "function";
}

// A builtin Fusescope writes in C++ that PyTorch defines as a class: matched as that class.
std::optional<std::string> torchClassOf(const BuiltinFunction& builtin) {
    if (builtin.name == "torch.profiler.record_function") return "torch.autograd.profiler.record_function";
    return std::nullopt;
}

}  // namespace

void Tracer::onCalleeUse(const Value& callee) {
    if (!ctx_.recording) return;
    auto* fn = callee.as<FunctionObject>();
    // A builtin class (int, range; zip, which Fusescope writes as a function) is guarded as a class.
    static const std::set<std::string> builtinClasses = {
        "bool", "bytearray", "bytes", "classmethod", "complex", "dict", "enumerate", "filter", "float", "frozenset", "int", "list",
        "map", "memoryview", "object", "property", "range", "reversed", "set", "slice", "staticmethod", "str", "super", "tuple",
        "type", "zip"};
    const bool builtinClass = callee.source && callee.source->kind == Source::Kind::Key && callee.source->base->kind == Source::Kind::Global &&
                              builtinClasses.count(callee.source->name);
    if (callee.source && (callee.as<TypeObject>() || callee.as<ClassObject>() || builtinClass)) {
        Guard g;
        g.kind = Guard::Kind::IdMatch;
        g.source = callee.source;
        g.constant = callee.unsourced();
        g.typeName = builtinClass ? callee.source->name
                     : callee.as<ClassObject>() ? callee.as<ClassObject>()->displayName()
                                                : callee.as<TypeObject>()->qualifiedName();
        g.classObject = callee.asObject();
        addGuard(std::move(g));
        // Dynamo runs its polyfill of enumerate, whose isinstance(start, int) reads these builtins.
        if (builtinClass && callee.source->name == "enumerate")
            for (const char* read : {"isinstance", "int"})
                if (const Value* builtin = interp_.findBuiltin(read)) onCalleeUse(interp_.withSource(*builtin, builtinSource(read)));
        return;
    }
    if (!callee.source || (!fn && !callee.as<BuiltinFunction>())) return;
    // A torch module's function is guarded as PyTorch's own is: by __code__ where it is
    // written in Python there (F.relu), by id where it is a builtin (torch.cat).
    // torch._C is PyTorch's C++ extension, torch._VF a view of it: all of them builtins.
    bool python = fn != nullptr;
    if (callee.source->kind == Source::Kind::Attr) {
        auto module = moduleNames_.find(callee.source->base->str());
        if (module != moduleNames_.end() && (module->second == "torch._C" || module->second.starts_with("torch._C.") || module->second == "torch._VF"))
            python = false;
        else if (module != moduleNames_.end() && torchHasName(module->second, callee.source->name))
            python = torchNameIsPythonFunction(module->second, callee.source->name);
    }
    // The standard library's by id, as CPython's own object (itertools.chain, a class there)
    const std::optional<std::string> standard = python && fn ? standardLibraryType(*fn) : std::nullopt;
    Guard g;
    g.kind = Guard::Kind::IdMatch;
    g.source = callee.source;
    g.constant = callee.unsourced();
    const auto* builtin = callee.as<BuiltinFunction>();
    const std::optional<std::string> torchClass = builtin ? torchClassOf(*builtin) : std::nullopt;
    g.ofCode = python && !standard;
    g.typeName = torchClass ? *torchClass : standard ? *standard : python ? "function" : "builtin_function_or_method";
    if ((standard && *standard != "function") || torchClass) g.classObject = callee.asObject();
    addGuard(std::move(g));
}

void Tracer::onSizeUse(const Tensor& t, int64_t dim) {
    auto src = tensorSources_.find(t.impl());
    if (src == tensorSources_.end() || dim < 0 || dim >= t.dim()) return;
    std::string source = src->second.front()->str();
    auto lifted = lifted_.find(t.impl());
    if (lifted == lifted_.end()) {
        specialized_.insert({source, dim});  // lifted later: the dim stays static
        // Never lifted, its sizes still decide what the code does (y.shape[0] as a constant):
        // guarded at the end of the trace, as made here.
        if (ctx_.recording) {
            const TensorMeta staticMeta{t.sizes(), t.strides(), t.dtype(), std::vector<std::string>(t.sizes().size())};
            sizeReads_.try_emplace(t.impl(), SizeRead{t, madeHere(tensorMatch(t, src->second.front(), staticMeta))});
            liftedSizes_.try_emplace(source, t.sizes());  // seen: a size that changes is dynamic on the recompile
        }
        return;
    }
    TensorMeta& meta = lifted->second.placeholder->meta[0];
    if (static_cast<size_t>(dim) >= meta.symbols.size() || meta.symbols[dim].empty()) return;
    specializeDim(src->second.front(), dim, meta.symbols[dim], t.sizes()[dim]);
}

void Tracer::specializeDim(const SourcePtr& source, int64_t dim, const std::string& symbol, int64_t size, const std::string& why) {
    if (!specializedSymbols_.insert(symbol).second) return;
    // As PyTorch replaces the symbol by its value: every input dim it stands for is static in
    // its tensor's guard again ("size mismatch at index 0. expected 4, actual 5"), without
    // its range guard.
    std::set<std::pair<std::string, int64_t>> dims;
    for (const auto& [impl, lifted] : lifted_) {
        const TensorMeta& meta = lifted.placeholder->meta[0];
        for (size_t d = 0; d < meta.symbols.size(); ++d)
            if (meta.symbols[d] == symbol && !lifted.source.empty()) dims.insert({lifted.source, static_cast<int64_t>(d)});
    }
    bool fixed = false;
    std::set<std::string> allStatic;  // tensors whose sizes are all static now
    for (size_t i = 0; i < guards_.size();) {
        Guard& g = guards_[i];
        const bool onDim = dims.count({g.source->str(), g.dim}) > 0;
        const bool otherDim = g.kind == Guard::Kind::DimsMatch && dims.count({g.otherSource->str(), g.otherDim}) > 0;
        if ((g.kind == Guard::Kind::DimAtLeast || g.kind == Guard::Kind::DimsMatch) && (onDim || otherDim)) {
            guards_.erase(guards_.begin() + static_cast<long>(i));
            guardReads_.erase(guardReads_.begin() + static_cast<long>(i));
            continue;
        }
        if (g.kind == Guard::Kind::TensorMatch)
            for (const auto& [sourceText, d] : dims)
                if (g.source->str() == sourceText && static_cast<size_t>(d) < g.sizes.size()) {
                    g.sizes[static_cast<size_t>(d)] = size;
                    fixed = true;
                }
        if (g.kind == Guard::Kind::TensorMatch && std::all_of(g.sizes.begin(), g.sizes.end(), [](const auto& n) { return n.has_value(); }))
            allStatic.insert(g.source->str());
        ++i;
    }
    for (const std::string& s : allStatic) fixStrides(s);
    if (!fixed) {  // not an input's tensor guard: said as its own guard
        Guard g;
        g.kind = Guard::Kind::DimEquals;
        g.source = source;
        g.dim = dim;
        g.count = size;
        addGuard(std::move(g));
    }
    log("dynamic", fmt::format("specialized {} = {} for {}.size()[{}]: {}", symbol, size, source->str(), dim, why));
    for (const auto& [sourceText, d] : dims) {
        auto lifted = liftedSizes_.find(sourceText);
        if (lifted != liftedSizes_.end() && static_cast<size_t>(d) < lifted->second.size()) lifted->second[static_cast<size_t>(d)] = size;
    }
    specializeSymbol(symbol);
}

const Tracer::SymbolOrigin* Tracer::symbolOrigin(const std::string& name) const {
    auto origin = std::find_if(sizeSymbols_.begin(), sizeSymbols_.end(), [&](const SymbolOrigin& o) { return o.name == name; });
    return origin == sizeSymbols_.end() ? nullptr : &*origin;
}

// As ShapeEnv's replacement of one symbol by another: the later dim is guarded equal to the
// earlier one and is that symbol from now on.
void Tracer::guardUnified() {
    for (const auto& [replaced, kept] : symbolic_.takeUnified()) {
        auto gone = std::find_if(sizeSymbols_.begin(), sizeSymbols_.end(), [&](const SymbolOrigin& o) { return o.name == replaced; });
        const SymbolOrigin* stays = symbolOrigin(kept);
        if (gone == sizeSymbols_.end() || !stays) continue;
        Guard same;
        same.kind = Guard::Kind::DimsMatch;
        same.source = gone->source;
        same.dim = gone->dim;
        same.otherSource = stays->source;
        same.otherDim = stays->dim;
        addGuard(std::move(same));
        log("dynamic", fmt::format("set_replacement {} = {} (the two sizes must be equal here) {}", replaced, kept, userCodeNote()));
        unifyStrideSymbols(replaced, kept);
        for (size_t i = 0; i < guards_.size(); ++i)  // its range is the kept symbol's
            if (guards_[i].kind == Guard::Kind::DimAtLeast && guards_[i].dim == gone->dim && guards_[i].source->str() == gone->source->str()) {
                guards_.erase(guards_.begin() + static_cast<long>(i));
                guardReads_.erase(guardReads_.begin() + static_cast<long>(i));
                break;
            }
        sizeSymbols_.erase(gone);
    }
}

void Tracer::specializeSymbol(std::string symbol) {  // a copy: the loop clears the placeholder's own
    symbolic_.specialize(symbol);
    auto symbolsIn = [](const std::string& expression) {  // "2*s0 + s1" -> {s0, s1}
        std::set<std::string> names;
        std::string token;
        for (char c : expression + " ") {
            if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') token += c;
            else if (!token.empty()) {
                if (std::isalpha(static_cast<unsigned char>(token[0]))) names.insert(token);
                token.clear();
            }
        }
        return names;
    };
    for (const auto& node : graph_->nodes())
        for (TensorMeta& meta : node->meta)
            for (std::vector<std::string>* expressions : {&meta.symbols, &meta.strideSymbols})
            for (std::string& expression : *expressions) {
                std::set<std::string> names = symbolsIn(expression);
                if (!names.count(symbol)) continue;
                if (names.size() == 1) expression.clear();
                else if (notSymbolic_.empty())
                    notSymbolic_ = fmt::format("{} (node {}) depends on {} and another size, and {} is now fixed", meta.str(), node->name,
                                               symbol, symbol);
            }
}

// ------------------------------------------------------------------- direct calls

void Tracer::onObjectTouch(const Value& object) {
    if (ctx_.direct) ctx_.direct->touch(object);
}

void Tracer::onScopeTouch(const ScopePtr& scope, const std::string& name) {
    if (ctx_.direct) ctx_.direct->touchVariable(scope, name);
}

// A direct call reads the grads the code read again (an optimizer's grads, Dynamo's GradSource,
// are sourced where its _init_group put them: Tracer::sourceFilledLists).
void Tracer::onGradRead(const Tensor& base) {
    if (ctx_.direct) ctx_.direct->gradRead(base);
}

// Dynamo's install_dict_keys_match_guard: a dict the code changes has its keys guarded, as
// they were before.
void Tracer::onDictWrite(const Value& dict) {
    if (!ctx_.recording || !dict.source || !dict.as<DictObject>() || hookDicts_.count(dict.source->str())) return;
    guardKeyOrder(dict);
}

// A subclass's type (a Parameter's) matched as Dynamo's python_type() installs it: outside any
// traced line (no comment). A plain tensor's TENSOR_MATCH holds its type already: Dynamo's
// call_type answers torch.Tensor, read off the torch module it installs as a global of its own.
void Tracer::onTensorTypeRead(const Value& tensor) {
    if (!ctx_.recording || !tensor.source) return;
    onInputUse(tensor);
    if (!tensor.asTensor().impl()->isParameter) {
        const Value torch = interp_.torchModuleSourced("torch").unsourced();
        const std::string name = fmt::format("_{}_c{}", reinterpret_cast<uintptr_t>(torch.asObject().get()), ctx_.outputGraph);
        interp_.installDynamoGlobal(name, torch);
        onCalleeUse(interp_.withSource(interp_.typeOf(tensor), attrSource(globalSource(name), "Tensor")));
        return;
    }
    Guard type;
    type.kind = Guard::Kind::TypeMatch;
    type.source = tensor.source;
    type.typeName = pythonTypeName(tensor);
    keepGuard(std::move(type));
}

void Tracer::onUntracedEffect(const std::string& what) {
    if (ctx_.direct) ctx_.direct->refuse(what);
}

// ------------------------------------------------------------------------- lifting

void Tracer::addTensorGuards(const Tensor& real, const SourcePtr& source, const TensorMeta& meta,
                             const std::vector<TensorProduct>& strides, const Node* placeholder) {
    if (staticTensors_.count(real.impl())) return;  // an optimizer's parameter: matched by id
    if (source->kind == Source::Kind::Attr && source->name == "grad") {  // its grad (Tracer::onGradRead)
        Guard notNone = madeHere(Guard{});
        notNone.kind = Guard::Kind::NotNone;
        notNone.source = source;  // made where an op first uses it, as Dynamo realizes it
        keepGuard(std::move(notNone));
        return;
    }
    // Made where the code first used the tensor: a size read before its first op counts.
    Guard match = madeHere(tensorMatch(real, source, meta));
    if (auto read = sizeReads_.find(real.impl()); read != sizeReads_.end()) {
        match.createdBy = read->second.guard.createdBy;
        match.createdAtLine = read->second.guard.createdAtLine;
        match.userStack = read->second.guard.userStack;
    }
    if (auto load = tensorLoads_.find(source->str()); load != tensorLoads_.end()) match.userStack = load->second;
    keepGuard(std::move(match));
    for (size_t d = 0; d < meta.sizes.size(); ++d) {
        if (meta.symbols[d].empty()) continue;
        Guard range;
        range.kind = Guard::Kind::DimAtLeast;
        range.source = source;
        range.dim = static_cast<int64_t>(d);
        range.count = 2;
        addGuard(std::move(range));
    }
    if (!strides.empty()) addStrideGuards(source, strides, placeholder);
}

Guard Tracer::tensorMatch(const Tensor& real, const SourcePtr& source, const TensorMeta& meta) {
    Guard g;
    g.kind = Guard::Kind::TensorMatch;
    g.source = source;
    g.dtype = real.dtype();
    g.device = real.isMeta() ? Device::meta() : real.device();
    g.requiresGrad = real.requiresGrad();
    g.strideValues = real.strides();
    for (size_t d = 0; d < meta.sizes.size(); ++d) {
        g.sizes.push_back(meta.symbols[d].empty() ? std::optional<int64_t>(meta.sizes[d]) : std::nullopt);
        // A symbolic stride prints None (PyTorch's stride=[s27, 1]); its StrideRelation guards check it.
        const bool symbolic = d < meta.strideSymbols.size() && !meta.strideSymbols[d].empty();
        g.strides.push_back(symbolic ? std::nullopt : std::optional<int64_t>(real.strides()[d]));
    }
    return g;
}

namespace {

// Dynamo's force_parameter_static_shapes: a parameter, or a tensor read from a module's
// _parameters or _buffers, keeps static sizes whatever a recompile saw.
bool parameterOrBuffer(const Tensor& real, const Source* source) {
    if (real.impl()->isParameter) return true;
    for (; source; source = source->base.get())
        if ((source->kind == Source::Kind::Key || source->kind == Source::Kind::Attr) &&
            (source->name == "_parameters" || source->name == "_buffers"))
            return true;
    return false;
}

}  // namespace

// Dynamo's force_nn_module_property_static_shapes: a tensor held by one of torch.nn's own
// modules (nn.Linear's weight) keeps static sizes, whatever force_parameter_static_shapes says.
bool Tracer::heldByTorchNnModule(const Source* source) const {
    if (!ctx_.resolve) return false;
    for (source = source ? source->base.get() : nullptr; source; source = source->base.get()) {
        const Value* holder = ctx_.resolve(*source);
        auto* instance = holder ? holder->as<InstanceObject>() : nullptr;
        if (instance && (instance->cls->module == "torch.nn" || instance->cls->module.starts_with("torch.nn."))) return true;
    }
    return false;
}

bool Tracer::dimBecomesDynamic(const Tensor& real, const SourcePtr& source, size_t d) const {
    const Shape& sizes = real.sizes();
    const std::string sourceText = source->str();
    if (sizes[d] < 2 || specialized_.count({sourceText, static_cast<int64_t>(d)}) ||
        (ctx_.staticParameters && parameterOrBuffer(real, source.get())) || heldByTorchNnModule(source.get()))
        return false;
    const auto& markedDims = real.impl()->dynamoDynamicDims;
    if (ctx_.allDynamic || std::find(markedDims.begin(), markedDims.end(), static_cast<int64_t>(d)) != markedDims.end()) return true;
    if (!ctx_.automaticDynamic || !ctx_.seenSizes) return false;
    // Dynamic once an earlier compile saw another size there, or another rank (every dim then).
    auto seen = ctx_.seenSizes->find(sourceText);
    return seen != ctx_.seenSizes->end() &&
           (seen->second.size() != sizes.size() || seen->second[d] == -1 || seen->second[d] != sizes[d]);
}

Argument Tracer::liftTensor(const Tensor& real, Tensor& meta) {
    if (auto it = overrides_.find(real.impl()); it != overrides_.end()) {
        meta = Tensor(it->second.impl.lock());
        return Argument::ref(it->second.node, it->second.outputIndex);
    }
    if (auto it = lifted_.find(real.impl()); it != lifted_.end()) {
        meta = it->second.meta;
        return Argument::ref(it->second.placeholder);
    }
    auto srcIt = tensorSources_.find(real.impl());
    SourcePtr source = srcIt == tensorSources_.end() ? nullptr : srcIt->second.front();
    std::string sourceText = source ? source->str() : fmt::format("___input_{}", inputs_.size());

    const Shape& sizes = real.sizes();
    TensorMeta tm{sizes, real.strides(), real.dtype(), std::vector<std::string>(sizes.size())};
    Shape recorded = sizes;
    bool markingLogged = false;
    for (size_t d = 0; d < sizes.size(); ++d) {
        if (!source || !dimBecomesDynamic(real, source, d)) continue;
        const auto& markedDims = real.impl()->dynamoDynamicDims;
        bool marked = std::find(markedDims.begin(), markedDims.end(), static_cast<int64_t>(d)) != markedDims.end();
        recorded[d] = -1;
        const bool duck = ctx_.allDynamic && !marked;
        auto shared = std::find_if(sizeSymbols_.begin(), sizeSymbols_.end(),
                                   [&](const SymbolOrigin& o) { return duck && o.duck && o.size == sizes[d]; });
        if (shared != sizeSymbols_.end()) {
            tm.symbols[d] = shared->name;
            Guard same;
            same.kind = Guard::Kind::DimsMatch;
            same.source = source;
            same.dim = static_cast<int64_t>(d);
            same.otherSource = shared->source;
            same.otherDim = shared->dim;
            addGuard(std::move(same));
            continue;
        }
        tm.symbols[d] = symbolNames_.next(fmt::format("{}.size()[{}]", sourceText, d));
        sizeSymbols_.push_back(SymbolOrigin{tm.symbols[d], source, static_cast<int64_t>(d), sizes[d], duck});
        // PyTorch 2.15's words: an input made dynamic by a recompile is "marked" first.
        if (!ctx_.allDynamic && !marked && !std::exchange(markingLogged, true))
            log("dynamic", fmt::format("marking {} as dynamic (from automatic dynamic/PGO)", sourceText));
        log("dynamic", fmt::format("create_symbol {} = {} for {}.size()[{}] [2, int_oo] {}", tm.symbols[d], sizes[d], sourceText, d,
                                   userCodeNote()));
    }
    std::vector<TensorProduct> strides;
    if (source && std::any_of(tm.symbols.begin(), tm.symbols.end(), [](const auto& s) { return !s.empty(); }))
        strides = makeSymbolicStrides(real, sourceText, tm);
    Node* node = graph_->addPlaceholder(sourceText, tm);
    node->where = interp_.currentLocation();
    node->sourceLine = currentLine();
    node->stack = interp_.tracedStack();
    node->inlineDepth = interp_.stack().back().inlineDepth;

    if (source) {
        for (const auto& each : srcIt->second) addTensorGuards(real, each, tm, strides, node);
        liftedSizes_[sourceText] = recorded;
    }
    try {
        if (notSymbolic_.empty()) symbolic_.addInput(node, real);
    } catch (const SymbolicSizesUnsupported& e) {
        notSymbolic_ = e.what();
    }
    meta = Tensor::emptyMeta(sizes, real.strides(), real.dtype());
    meta.setRequiresGrad(real.requiresGrad());
    lifted_[real.impl()] = Lifted{node, meta, sourceText, strides};
    inputs_.push_back(real);
    InputLink link;
    if (ctx_.timeline)
        if (auto made = ctx_.timeline->producedBy.find(real.impl());
            made != ctx_.timeline->producedBy.end() && made->second.impl.lock() == real.implPtr())
            link = made->second.link;
    inputsFrom_.push_back(link);
    return Argument::ref(node);
}

Argument Tracer::argumentFor(const IValue& value, IValue& metaValue) {
    if (value.isTensor()) {
        const Tensor& t = value.toTensor();
        if (auto it = lazy_.find(t.impl()); it != lazy_.end()) {
            metaValue = value;
            return Argument::ref(it->second.node, it->second.outputIndex);
        }
        Tensor meta;
        Argument arg = liftTensor(t, meta);
        metaValue = IValue(meta);
        return arg;
    }
    if (value.isSequence()) {
        const auto& seq = value.toSequence();
        std::vector<Argument> items;
        IValueList metaItems;
        for (const auto& item : seq->items) {
            IValue m;
            items.push_back(argumentFor(item, m));
            metaItems.push_back(std::move(m));
        }
        metaValue = seq->isTuple ? IValue::tuple(std::move(metaItems)) : IValue::list(std::move(metaItems));
        return Argument::sequence(std::move(items), seq->isTuple);
    }
    if (const SymbolicInt* symbolic = value.symbolic()) {
        Node* node = nodeOf(*symbolic);
        metaValue = IValue(node ? symbolic->hint : value.toInt());  // one of an earlier graph: specialized
        return node ? Argument::ref(node) : Argument::value(metaValue);
    }
    if (const SymbolicFloat* symbolic = value.symbolicFloat()) {
        Node* node = nodeOf(*symbolic);
        metaValue = IValue(node ? symbolic->hint : value.toDouble());
        return node ? Argument::ref(node) : Argument::value(metaValue);
    }
    metaValue = value;
    return Argument::value(value);
}

void Tracer::registerLazy(const Tensor& meta, Node* node, int outputIndex, std::optional<Device> device) {
    lazy_[meta.impl()] = LazyRef{node, outputIndex, meta.implPtr(), nextOrder_++, device};
    node->meta.push_back(TensorMeta{meta.sizes(), meta.strides(), meta.dtype(), {}});
}

// ---------------------------------------------------------------------------- ops

// Where the op's results will live, from the devices of the tensors its arguments stand
// for; mixing devices raises the error eager mode would (meta tensors cannot tell).
std::optional<Device> Tracer::resultDevice(const OpDef& op, const BoundArgs& bound, const IValueList& args,
                                           const Kwargs& kwargs) const {
    SeenDevices devices([this](const Tensor& t) -> std::optional<Device> {
        auto it = lazy_.find(t.impl());
        return it == lazy_.end() ? std::optional<Device>(t.device()) : it->second.device;
    });
    for (const auto& a : args) devices.collect(a);
    for (const auto& [name, value] : kwargs) devices.collect(value);
    std::optional<Device> device = devices.common();
    if (!device && devices.sawCpuScalar()) device = Device::cpu();  // ops on 0-dim CPU tensors alone
    if (!placesItsOwnResults(op, bound)) return device;
    // Where an op placing its own results puts them: its device argument when given, the CPU
    // for cpu(), to(other)'s other's device, else where its tensor arguments are
    // (zeros_like(x), x.to(dtype)), else the default device (a factory without device=).
    // Unknown, the lazy result's .device was its meta tensor's: torch.rand(...,
    // device=t.device) then made meta tensors at run time, silently all zeros.
    auto named = std::find(bound.names.begin(), bound.names.end(), "device");
    if (named != bound.names.end() && bound.values_[static_cast<size_t>(named - bound.names.begin())].isDevice())
        return bound.values_[static_cast<size_t>(named - bound.names.begin())].toDevice();
    if (op.name == "cpu") return Device::cpu();
    if (op.name == "to.other" && args.size() > 1) {
        SeenDevices other([this](const Tensor& t) -> std::optional<Device> { return deviceOf(t); });
        other.collect(args[1]);
        return other.common();
    }
    return device ? device : std::optional<Device>(defaultDevice());
}

IValue Tracer::captureOp(const OpCall& call) {
    if (pendingResume_) {  // the instruction that broke runs eagerly, as Dynamo runs it, up to the resume point
        OpCall eager = call;
        eager.capture = nullptr;
        return dispatch(eager);
    }
    const OpRegistry& registry = OpRegistry::instance();
    const OpDef& op = call.op;
    const IValueList& args = call.args;
    const Kwargs& kwargs = call.kwargs;
    const CallStyle style = call.style;
    const CallSite& site = call.site;
    specializeSizingFloats(call);
    IValueList metaArgs;
    std::vector<Argument> nodeArgs;
    for (const auto& a : args) {
        IValue m;
        nodeArgs.push_back(argumentFor(a, m));
        metaArgs.push_back(std::move(m));
    }
    Kwargs metaKwargs;
    std::vector<std::pair<std::string, Argument>> nodeKwargs;
    for (const auto& [name, value] : kwargs) {
        IValue m;
        nodeKwargs.emplace_back(name, argumentFor(value, m));
        metaKwargs.emplace_back(name, std::move(m));
    }
    auto [def, bound] = registry.resolve(baseOpName(op.name), metaArgs, metaKwargs);
    if (!def->infer) throw Error("internal error: op '" + def->name + "' has no shape inference");
    IValue out;
    try {
        std::optional<IValue> complex = complexCall(*def, bound);
        out = complex ? *complex : def->infer(bound);
    } catch (const DataDependentOutput& e) {
        graphBreak(graph_breaks::dataDependentOperator(fmt::format("aten.{}.default", e.op()), false));
        OpCall eager = call;  // its tensors are real now: the break ran the graph before it
        eager.capture = nullptr;
        return dispatch(eager);
    } catch (const ScriptError& e) {
        // The op's own error, said as Dynamo says an error of its fake-tensor run (a RuntimeError).
        if (e.kind() != "RuntimeError") throw;  // an IndexError passes as it is, as in Dynamo
        std::optional<std::string> fake = fakeRunError(*def, style, args, nodeArgs, nodeKwargs, e);
        if (!fake) throw;
        // A try block of the traced code catches it as such; else it ends the compile.
        if (!inTracedTry()) throw ScriptError("TorchRuntimeError", compileErrorMessage(graph_breaks::fakeTensorCall(*fake), &site), e.where());
        throw ScriptError("RuntimeError", *fake, e.where());
    }
    std::optional<Device> device = resultDevice(*def, bound, args, kwargs);
    markRequiresGrad(*def, bound, out);

    std::string target(baseOpName(def->name));
    Node* node = graph_->addCall(style == CallStyle::Method ? NodeOp::CallMethod : NodeOp::CallFunction, target, style,
                                 std::move(nodeArgs), std::move(nodeKwargs));
    node->operatorSymbol = call.symbol;
    node->gradEnabled = gradEnabled();
    node->where = site.where.known() && interp_.isScriptFile(site.where.file) ? site.where : interp_.userLocation();
    node->sourceLine = strip(interp_.sourceLine(node->where));
    node->stack = interp_.tracedStack();
    node->moduleStack = moduleStackOf(interp_);
    node->inlineDepth = interp_.stack().back().inlineDepth;

    if (ctx_.recording && ctx_.logger && ctx_.logger->enabled("graph_breaks") && compiledFrameRunning())
        markedLines_[node] = markedLine(interp_.sourceLine(node->where), site);  // where a break's stack values came from
    if (ctx_.recording && ctx_.logger && ctx_.logger->enabled("trace_call")) {
        // Dynamo's words: the code after a break runs as its resume function; its qualname after.
        const Frame& frame = interp_.stack().back();
        const std::string function = frame.inlineDepth == 0 ? resumeName(frame.function) : frame.function;
        log("trace_call", fmt::format("TRACE FX call {} from {}:{} in {} ({})\n{}", node->name, node->where.file,
                                      node->where.line, function, frame.callee ? frame.callee->qualname : frame.function,
                                      markedLine(interp_.sourceLine(node->where), site)));
    }

    IValue result;
    if (isInplaceOp(target) && !args.empty() && args[0].isTensor()) {
        // The mutated tensor keeps its identity: later uses read this node's result.
        const Tensor& self = args[0].toTensor();
        const Tensor& selfMeta = metaArgs[0].toTensor();
        if (lazy_.count(self.impl())) {
            registerLazy(selfMeta, node, -1, device);
        } else {
            overrides_[self.impl()] = LazyRef{node, -1, selfMeta.implPtr(), nextOrder_++, device};
            node->meta.push_back(TensorMeta{selfMeta.sizes(), selfMeta.strides(), selfMeta.dtype(), {}});
        }
        result = args[0];
    } else if (out.isTensor()) {
        registerLazy(out.toTensor(), node, -1, device);
        result = out;
    } else if (out.isSequence()) {
        node->returnsTuple = true;
        const auto& items = out.toSequence()->items;
        for (size_t i = 0; i < items.size(); ++i)
            if (items[i].isTensor()) registerLazy(items[i].toTensor(), node, static_cast<int>(i), device);
        result = out;
    } else {
        result = out;
    }
    guardContiguityAt(*node, *def);
    if (notSymbolic_.empty()) {  // a replay too: its SymInts read the symbols of graph values
        try {
            if (guardEndPastDim(*node, args, metaArgs)) symbolic_.endPastDim(node);
            guardIndexWithin(*node, args);
            symbolic_.addCall(node, *def);
            guardUnified();
            guardIntSizes(*node);
            if (symbolic_.assumesEndWithin(node)) guardEndWithin(args[3], metaArgs[0].toTensor(), args[1].toInt());
        } catch (const SymbolicSizesUnsupported& e) {
            notSymbolic_ = e.what();
        }
    }
    return result;
}

// --------------------------------------------------------------------- statements

void Tracer::onStatement(const Stmt& stmt) {
    // A resume point is in the statement that broke: the compiled frame going on to the next
    // means the expression it waited for is not coming (it broke somewhere else).
    if (pendingResume_ && interp_.stack().size() == pendingResume_->frame + 1) pendingResume_.reset();
    if (!ctx_.recording || !ctx_.logger || !ctx_.logger->enabled("trace_source")) return;
    const Frame& frame = interp_.stack().back();
    std::string depth = frame.inlineDepth > 0 ? fmt::format(" (inline depth: {})", frame.inlineDepth) : "";
    log("trace_source", fmt::format("TRACE starts_line {}:{} in {}{}\n    {}", stmt.loc.file, stmt.loc.line,
                                    frame.function, depth, strip(interp_.sourceLine(stmt.loc))));
}

namespace {

// "  File "script.py", line 5, in f\n    print("hi")\n    ~~~~~^^^^^^\n" per frame, as Dynamo
// formats a user stack.
std::string formatStack(const std::vector<StackFrame>& frames) {
    std::string out;
    for (const auto& f : frames) {
        out += "  " + f.str() + "\n";
        if (!f.sourceLine.empty()) out += "    " + f.sourceLine + "\n";
        if (!f.marker.empty()) out += "    " + f.marker + "\n";
    }
    return out;
}

}  // namespace

// An error torch.compile raises (Unsupported with fullgraph, TorchRuntimeError), as Dynamo's
// augment_exc_message words it: the break's entry, the user code, the hint to see more.
// `site`: the op it broke at, whose marker the innermost frame shows (y @ w: "~~^~~").
std::string Tracer::compileErrorMessage(const GraphBreak& why, const CallSite* site) const {
    std::vector<StackFrame> stack = interp_.markedStack(true);
    if (site && !stack.empty() && site->where.line == stack.back().line) {
        const std::string marked = markedLine(interp_.sourceLine(site->where), *site);
        if (size_t cut = marked.find("\n    "); cut != std::string::npos) stack.back().marker = marked.substr(cut + 5);
    }
    return why.message() + "\n\nfrom user code:\n " + formatStack(stack) +
           "\nSet TORCHDYNAMO_VERBOSE=1 for the internal stack trace (please do this especially if you're reporting a bug to "
           "PyTorch). For even more developer context, set TORCH_LOGS=\"+dynamo\"\n";
}

namespace {

// Of frames after one another in functions of one name, the last, as the graph_breaks log's
// traceback has them (Dynamo's collapse_resume_frames: a forward calling an inlined module's
// forward shows that one).
std::vector<StackFrame> collapsed(const std::vector<StackFrame>& stack) {
    std::vector<StackFrame> frames;
    for (const StackFrame& f : stack) {
        if (!frames.empty() && frames.back().function == f.function) frames.back() = f;
        else frames.push_back(f);
    }
    return frames;
}

}  // namespace

void Tracer::graphBreak(const GraphBreak& reported) {
    GraphBreak why = reported;
    if (!why.warning.empty() && ctx_.recording && ctx_.logger && ctx_.warningsGiven && ctx_.warningsGiven->insert(why.warning).second)
        ctx_.logger->warning("dynamo", ctx_.compileId, why.warning + formatStack(interp_.markedStack(true)) + "\n");
    // Dynamo words a break by the compiled frame's instruction, a break in a function it calls
    // by that call: a subscript's evaluation (x[mask]) is BINARY_SUBSCR, f(*args) CALL_FUNCTION_EX.
    const auto& frames = interp_.stack();
    const Frame* compiledFrame = interp_.compiledFrame();
    if (why.instruction == graph_breaks::kCallInstruction && compiledFrame && compiledFrame->pending)
        why.instruction = graph_breaks::instructionOf(*compiledFrame->pending);
    if (ctx_.fullgraph)
        throw ScriptError("Unsupported", compileErrorMessage(why));
    // torch/_composite*.py's functions are one C++ op each in PyTorch: a break in one is at
    // the script's line that called it, as PyTorch reports a break in that op.
    SourceLocation at = interp_.torchLocation();
    if (at.file.rfind("torch/_composite", 0) == 0) at = interp_.userLocation();
    // Inside a try block or an exception handler of the compiled frame Dynamo cannot resume:
    // it skips the frame, which runs eagerly.
    if (compiledFrame && compiledFrame->tryDepth > 0) why.ungraceful = true;
    if (restarts(why, at)) throw TraceRestart{};
    if (endsAtCallStart(why, at)) return;
    if (ctx_.recording) recordBreak(why, at, interp_.markedStack(true), interp_.markedStack(false));
    if (ctx_.direct) ctx_.direct->refuse("it breaks the graph (" + why.gbType + ")");
    flush(why.gbType);
    // A break in the compiled frame's own code (not in a function it calls, nor a
    // comprehension) that Dynamo goes on from: once the call or subscript it broke in returns,
    // or the if's test is decided (a data-dependent branch says no instruction).
    pendingResume_.reset();
    if (const Frame* compiled = compiledFrameRunning(); ctx_.resume && !why.ungraceful && compiled && compiled->pending) {
        const ExprKind kind = compiled->pending->kind;
        if (why.instruction.empty() || kind == ExprKind::Call || kind == ExprKind::Subscript)
            pendingResume_ = PendingResume{compiled->pending, static_cast<std::size_t>(compiled - frames.data()), interp_.userLocation().line};
    }
}

// Dynamo resumes after a break in the compiled frame's own code. One in a function the frame
// calls (inlined) makes it trace the frame again, ending the graph at that call and running the
// call eagerly (the function then a frame of its own); one in a loop makes it skip the frame
// ("graph break in loop"). Here the code has run: it runs again only where what it did so far
// changed nothing (the direct-call recorder's check), else the trace goes on as it is.
bool Tracer::restarts(GraphBreak& why, const SourceLocation& at) {
    const Frame* compiled = interp_.compiledFrame();
    const bool inTry = compiled && compiled->tryDepth > 0;
    if (!ctx_.mayRestart || !ctx_.recording || (why.ungraceful && !inTry) || !ctx_.direct || !ctx_.direct->unchangedSoFar()) return false;
    if (!compiled || !compiled->callee || !compiled->callee->def) return false;
    Restart restart;
    if (inTry) {
        restart.skipFrame = true;
    } else if (!compiled->loops.empty()) {
        restart.skipFrame = true;
        const SourceLocation& def = ctx_.functionWhere;
        why.thenBroke = std::make_shared<GraphBreak>(
            graph_breaks::breakInLoop(fmt::format("{} ({} line {})", compiled->function, def.file, def.line)));
    } else if ((!compiledFrameRunning() || inInlinedTorchFunction()) && compiled->pending && compiled->pending->kind == ExprKind::Call &&
               compiled->comprehensions.empty() && liveAfter(*compiled->callee->def, *compiled->pending, std::nullopt)) {
        restart.call = compiled->pending;
    } else {
        return false;
    }
    recordBreak(why, at, interp_.markedStack(true), interp_.markedStack(false));
    restart.record = breaks_.back();
    restart_ = std::move(restart);
    return true;
}

std::optional<Value> Tracer::callAtBreak(const Expr& call, const Value& callee, CallArgs& args) {
    callStart_ = CallStart{&call, graphGeneration_, graph_->nodes().size(), guards_.size(), gradEnabled()};
    if (!ctx_.breaksAtCalls || !ctx_.callEagerly) return std::nullopt;
    auto broke = ctx_.breaksAtCalls->find(&call);
    if (broke == ctx_.breaksAtCalls->end()) return std::nullopt;
    if (ctx_.recording) {
        breaks_.push_back(broke->second);  // logged where the first trace found it
        for (const Value& a : args.args) realizeStackValue(a);
        for (const auto& [name, value] : args.kwargs) realizeStackValue(value);
    }
    if (ctx_.direct) ctx_.direct->refuse("it breaks the graph (" + broke->second.why.gbType + ")");
    flush(broke->second.why.gbType);
    const auto& frames = interp_.stack();
    pendingResume_ = PendingResume{&call, frames.size() - 1, frames.back().line};
    return ctx_.callEagerly(callee, args);
}

void Tracer::resumeAfter(const Expr& at, Value& value) { resumeAt(at, &value, std::nullopt); }

void Tracer::resumeInBranch(const Expr& test, bool taken) { resumeAt(test, nullptr, taken); }

void Tracer::resumeAt(const Expr& at, Value* result, std::optional<bool> branch) {
    if (!pendingResume_ || pendingResume_->at != &at || interp_.stack().size() != pendingResume_->frame + 1) return;
    ResumeRequest request;
    request.at = &at;
    request.branch = branch;
    request.line = pendingResume_->line;
    request.stack = interp_.stack().back().operands;
    if (result) request.stack.push_back(result);
    request.function = interp_.stack().back().callee;
    request.scope = interp_.currentScope();
    pendingResume_.reset();
    ctx_.resume(request);
}

// Meta tensors carry no autograd: each result gets the requires_grad eager would give it, so
// y.requires_grad and y.is_leaf of a graph value answer as eager's (and ops after it inherit
// it). Views and detach say their own in their shape inference.
void Tracer::markRequiresGrad(const OpDef& op, const BoundArgs& metaArgs, const IValue& results) const {
    if (!gradEnabled() || !recordsGradFn(op.name, metaArgs)) return;
    std::function<void(const IValue&)> mark = [&](const IValue& v) {
        if (v.isTensor() && v.toTensor().defined() && isFloating(v.toTensor().dtype())) v.toTensor().impl()->requiresGrad = true;
        if (v.isSequence())
            for (const IValue& item : v.toSequence()->items) mark(item);
    };
    mark(results);
}

const Node* Tracer::producer(const Tensor& t) const {
    auto it = lazy_.find(t.impl());
    return it == lazy_.end() ? nullptr : it->second.node;
}

std::string Tracer::producingOp(const Tensor& t) const {
    const Node* node = producer(t);
    return node ? node->target : "";
}

std::vector<StackFrame> Tracer::guardStack() const {
    std::vector<StackFrame> stack = interp_.dynamoStack();
    if (!ctx_.resumedAs.empty() && !stack.empty()) stack.front().function = ctx_.resumedAs;
    return stack;
}

std::string Tracer::resumeName(const std::string& function) const {
    if (breaks_.empty() || breaks_.back().userStack.empty()) return ctx_.resumedAs.empty() ? function : ctx_.resumedAs;
    return fmt::format("torch_dynamo_resume_in_{}_at_{}", function, breaks_.back().userStack.front().line);
}

// Dynamo's format_tensor_computation_trace: the graph's inputs the value comes from, then
// the function calls that computed it, each under the line that made it.
std::string Tracer::computationTrace(const Tensor& t) const {
    const Node* root = producer(t);
    if (!root) return "";
    std::vector<std::vector<std::string>> inputs, ops;
    std::set<const Node*> visited;
    auto sourceInfo = [&](const Node& n) {
        if (n.stack.empty()) return std::string();
        const StackFrame& f = n.stack.back();
        const std::string function = n.stack.size() == 1 ? resumeName(f.function) : f.function;
        return fmt::format("# File \"{}\", line {}, in {}{}", f.file, f.line, function,
                           f.sourceLine.empty() ? "" : ", code: " + f.sourceLine);
    };
    std::function<void(const Node&)> walk = [&](const Node& n) {
        if (!visited.insert(&n).second) return;
        std::vector<std::string> block;
        if (std::string source = sourceInfo(n); !source.empty()) block.push_back(source);
        if (n.op == NodeOp::Placeholder) {
            block.push_back(fmt::format("{}: graph input ({})", n.name, n.target));
            inputs.push_back(std::move(block));
            return;
        }
        if (n.op != NodeOp::CallFunction || ops.size() >= 20) return;
        std::vector<std::string> args;
        for (const Argument& a : n.args) args.push_back(argumentCode(a));
        const std::string target = n.style == CallStyle::Operator ? pythonOperatorName(n.target) : n.target;
        block.push_back(fmt::format("{} = {}({})", n.name, target, fmt::join(args, ", ")));
        ops.push_back(std::move(block));
        for (const Argument& a : n.args)
            if (a.kind == Argument::Kind::NodeRef) walk(*a.node);
    };
    walk(*root);
    if (inputs.empty() && ops.empty()) return "";
    std::vector<std::string> lines;
    std::reverse(ops.begin(), ops.end());
    for (const auto* blocks : {&inputs, &ops})
        for (const auto& block : *blocks) {
            lines.insert(lines.end(), block.begin(), block.end());
            lines.push_back("");
        }
    std::string out = "\n\n  The branch condition involves a tensor computed as follows:";
    for (const std::string& line : lines) out += "\n    " + line;
    return out;
}

void Tracer::exceptionEscaped(const ScriptError& e, const FunctionObject& fn, int moduleCalls) {
    if (!ctx_.recording || e.kind() == "Unsupported" || e.kind() == "TorchRuntimeError") return;  // the compile's own: no break
    // The unwound frames are gone: the raise's line when it is the script's, else the def's.
    SourceLocation where = e.where().known() && interp_.isScriptFile(e.where().file) ? e.where() : fn.definedAt();
    StackFrame frame{where.file, where.line, fn.name, strip(interp_.sourceLine(where))};
    // The traceback: the frames calling the compiled one (their calls marked), torch.nn's
    // frames of the module calls around it, then its raise, marked whole.
    std::vector<StackFrame> logStack = interp_.markedStack(false);
    for (int i = 0; i < moduleCalls; ++i) logStack.insert(logStack.end(), moduleCallFrames().begin(), moduleCallFrames().end());
    logStack.push_back(frame);
    if (frame.sourceLine.starts_with("raise")) logStack.back().marker = std::string(frame.sourceLine.size(), '^');
    recordBreak(graph_breaks::observedException(fmt::format("{}({})", e.kind(), valueRepr(Value(std::string(e.what()))))), where,
                {frame}, logStack);
}

void Tracer::recordBreak(GraphBreak why, const SourceLocation& at, std::vector<StackFrame> userStack,
                         std::vector<StackFrame> logStack) {
    if (ctx_.logger && ctx_.logger->enabled("graph_breaks")) {
        if (ctx_.loggedBreaks && !ctx_.loggedBreaks->emplace(why.loggedType(), at.file, at.line).second) {
            log("graph_breaks", fmt::format("Graph break (user stack suppressed due to duplicate graph break) in user code at "
                                            "{}:{}\nGraph Break Reason: {}",
                                            at.file, at.line, why.reason()));
        } else {
            const std::string attribution = stackAttribution(why.thenBroke != nullptr);
            log("graph_breaks", fmt::format("Graph break in user code at {}:{}\nGraph Break Reason: {}\n\n{}User code traceback:\n{}",
                                            at.file, at.line, why.reason(), attribution.empty() ? "" : attribution + "\n\n",
                                            formatStack(collapsed(logStack))));
        }
    }
    if (ctx_.bus) {
        std::string explanation = why.explanation;
        if (why.thenBroke) explanation += "\n\nThen " + why.thenBroke->gbType + ": " + why.thenBroke->explanation;
        ctx_.bus->emit(GraphBreakEvent{ctx_.compileId, why.gbType, userStack, why.gbId(), explanation, why.hints, why.context});
    }
    // explain() gives a data-dependent branch's frame alone, named as Dynamo's resume function.
    std::vector<StackFrame> explainStack = userStack;
    if (!why.explainReason.empty() && !explainStack.empty()) {
        explainStack = {explainStack.back()};
        if (userStack.size() == 1) explainStack.back().function = resumeName(explainStack.back().function);
    }
    const Frame* compiled = interp_.compiledFrame();
    breaks_.push_back(BreakRecord{std::move(why), std::move(userStack), graph_->opCount() > 0, std::move(explainStack),
                                  compiled ? static_cast<int>(compiled->torchContexts.size()) : 0});
}

// Dynamo would trace the frame again, the graph ending at the call; a resume function's trace
// cannot run its frame again. Where the call so far put nothing in the graph, ending the graph
// now is ending it where the call began: the guards the call made are dropped, and the rest of
// the call runs eagerly (what the call did so far it did once, as the Python it is).
bool Tracer::endsAtCallStart(GraphBreak& why, const SourceLocation& at) {
    const Frame* compiled = interp_.compiledFrame();
    if (!ctx_.recording || !ctx_.endAtCall || why.ungraceful || !compiled || !compiled->pending || compiled->pending != callStart_.call)
        return false;
    if (compiledFrameRunning() && !inInlinedTorchFunction()) return false;  // a break in the frame's own code
    if (!compiled->callee || !compiled->callee->def || !compiled->loops.empty() || !compiled->comprehensions.empty() ||
        compiled->tryDepth > 0 || graphGeneration_ != callStart_.graphGeneration || graph_->nodes().size() != callStart_.nodes || !liveAfter(*compiled->callee->def, *compiled->pending, std::nullopt))
        return false;
    guards_.resize(callStart_.guards);
    guardReads_.resize(callStart_.guards);
    recordBreak(why, at, interp_.markedStack(true), interp_.markedStack(false));
    const auto frame = static_cast<std::size_t>(compiled - interp_.stack().data());
    if (onlyTorchCodeSince(*compiled) && ctx_.breaksAtCalls && ctx_.callEagerly) {
        // torch's code changed nothing but the grad mode: the call is made again, eagerly
        // (Tracer::callAtBreak), its functions compiled as frames of their own
        ctx_.breaksAtCalls->emplace(compiled->pending, breaks_.back());
        breaks_.pop_back();
        CallRestart restart;
        restart.call = compiled->pending;
        restart.frame = frame;
        restart.gradMode = callStart_.gradMode;
        throw restart;
    }
    if (ctx_.direct) ctx_.direct->refuse("it breaks the graph (" + why.gbType + ")");
    flush(why.gbType);
    pendingResume_ = PendingResume{compiled->pending, frame, compiled->line};
    ctx_.endAtCall(*compiled->pending, breaks_.back(), frame);
    return true;
}

bool Tracer::inTracedTry() const {
    const auto& frames = interp_.stack();
    const Frame* compiled = interp_.compiledFrame();
    return compiled && std::any_of(frames.begin() + (compiled - frames.data()), frames.end(), [](const Frame& f) { return f.tryDepth > 0; });
}

bool Tracer::onlyTorchCodeSince(const Frame& compiled) const {
    const auto& frames = interp_.stack();
    return std::all_of(frames.begin() + (&compiled - frames.data()) + 1, frames.end(), [](const Frame& f) {
        return f.callee && f.callee->def && torchPlaceOf(f.qualname, "").has_value();
    });
}

bool Tracer::inInlinedTorchFunction() const {
    const auto& frames = interp_.stack();
    const Frame* compiled = interp_.compiledFrame();
    return compiled && std::any_of(frames.begin() + (compiled - frames.data()) + 1, frames.end(), [](const Frame& f) {
        return f.callee && f.callee->def && torchPlaceOf(f.qualname, "").has_value();
    });
}

const Frame* Tracer::compiledFrameRunning() const {
    const auto& frames = interp_.stack();
    auto user = std::find_if(frames.rbegin(), frames.rend(), [&](const Frame& f) { return interp_.isScriptFile(f.where.file); });
    return user != frames.rend() && user->traced && user->inlineDepth == 0 && user->comprehensions.empty() ? &*user : nullptr;
}

namespace {

// Dynamo's repr of the iterator a loop holds on the stack ("" where Fusescope does not name it).
std::string loopIteratorRepr(const Frame::Loop& loop) {
    const Value* iterated = loop.iterator.isNone() ? loop.iterable : &loop.iterator;
    if (!iterated) return "";
    if (iterated->as<RangeObject>()) return "RangeIteratorVariable()";
    std::string over = pythonTypeName(*iterated);
    size_t length = 0, index = static_cast<size_t>(loop.taken);
    if (const ValueList* items = sequenceItems(*iterated)) length = items->size();
    if (const auto* it = iterated->as<IteratorObject>()) {
        over = it->over;
        length = it->items.size();
        index = it->next;
    }
    if (over == "list" || over == "tuple")
        return fmt::format("{}IteratorVariable(length={}, index={})", over == "list" ? "List" : "Tuple", length, index);
    static const std::map<std::string, std::string> views = {
        {"dict_keys", "DictKeysIterator()"},   {"odict_keys", "DictKeysIterator()"},   {"dict_values", "DictValuesIterator()"},
        {"odict_values", "DictValuesIterator()"}, {"dict_items", "DictItemsIterator()"}, {"odict_items", "DictItemsIterator()"}};
    auto view = views.find(over);
    return iterated->as<IteratorObject>() && view != views.end() ? view->second : "";
}

// `rawLine` as Dynamo's source attribution prints it: indented four more, `site`'s expression
// marked under it where given.
std::string attributedLine(const std::string& rawLine, const CallSite* site) {
    const std::string indent = rawLine.substr(0, std::min(rawLine.find_first_not_of(" \t"), rawLine.size()));
    if (!site) return "    " + indent + strip(rawLine);
    std::string marked = markedLine(rawLine, *site);  // "    line\n    marker", aligned to the stripped line
    marked.insert(marked.find('\n') + 5, indent);
    return marked.insert(4, indent);
}

// The expression the function returns, where its body ends in `return <expr>` (an __iter__'s).
const Expr* returnedExpression(const FunctionObject& fn) {
    if (!fn.def || fn.def->body.empty() || fn.def->body.back()->kind != StmtKind::Return) return nullptr;
    return fn.def->body.back()->as<Return>().value.get();
}

}  // namespace

// Where the loop's iterator was made, as Dynamo attributes it: the for statement, or the call
// an __iter__ of Fusescope's torch.nn returned it from, at PyTorch's place.
std::string Tracer::loopOrigin(const Frame::Loop& loop) const {
    const Expr* made = loop.iterMethod ? returnedExpression(*loop.iterMethod) : nullptr;
    if (!made || interp_.isScriptFile(made->loc.file))
        return fmt::format("  File \"{}\", line {}\n{}", loop.stmt->loc.file, loop.stmt->loc.line,
                           attributedLine(interp_.sourceLine(loop.stmt->loc), nullptr));
    const std::string raw = interp_.sourceLine(made->loc);
    std::optional<TorchPlace> place = torchPlaceOf(loop.iterMethod->qualname, std::string(codeOf(strip(raw))));
    if (!place) return "";
    CallSite site;
    site.where = made->loc;
    site.endColumn = made->endColumn;
    return fmt::format("  File \"{}\", line {}\n{}", place->file, place->line, attributedLine(raw, &site));
}

std::string Tracer::stackAttribution(bool loops) const {
    std::string parts;
    std::set<std::string> seen;
    const Frame* compiled = interp_.compiledFrame();
    if (loops && compiled)
        for (const Frame::Loop& loop : compiled->loops)
            if (std::string repr = loopIteratorRepr(loop), origin = repr.empty() ? "" : loopOrigin(loop); !origin.empty())
                parts += fmt::format("\n  {} originated from:\n{}", repr, origin);
    // a `with` block's exit, waiting on the compiled frame's stack
    for (const SourceLocation& with : compiled ? compiled->torchContexts : std::vector<SourceLocation>{}) {
        SourceLocation at = with;
        if (!interp_.isScriptFile(at.file))
            if (std::optional<TorchPlace> place = interp_.torchPlaceAt(*compiled, at)) at = {std::string(place->file), place->line, 0};
        parts += fmt::format("\n  WithExitFunctionVariable() originated from:\n  File \"{}\", line {}\n    {}", at.file, at.line,
                             interp_.sourceLine(with));
    }
    const Frame* frame = compiledFrameRunning();
    for (const Value* value : frame ? frame->operands : std::vector<Value*>{}) {
        const Node* node = value->isTensor() ? producer(value->asTensor()) : nullptr;
        auto marked = node ? markedLines_.find(node) : markedLines_.end();
        if (marked == markedLines_.end()) continue;
        std::string indented = "    " + marked->second;  // each line of the marked source, indented once more
        for (std::size_t at = indented.find('\n'); at != std::string::npos; at = indented.find('\n', at + 1)) indented.insert(at + 1, "    ");
        const std::string place = fmt::format("  File \"{}\", line {}\n{}", node->where.file, node->where.line, indented);
        if (seen.insert(place).second) parts += "\n  TensorVariable() originated from:\n" + place;
    }
    return parts.empty() ? "" : "Stack variable source attribution:" + parts;
}

void Tracer::finish() {
    flush("");
    for (auto& [impl, read] : sizeReads_)
        if (!lifted_.count(impl)) keepGuard(std::move(read.guard));
}

void Tracer::flush(const std::string& reason) {
    const int64_t flushStartNs = Profiler::nowNs();
    guardContiguityLeft();  // the graph's compile asks what its ops did not
    struct Output {
        size_t order;
        Argument arg;
        Tensor tensor;
    };
    std::vector<Output> outputs;
    for (const auto& [impl, ref] : lazy_) {
        std::shared_ptr<TensorImpl> alive = ref.impl.lock();
        if (!alive || alive.use_count() <= 1) continue;  // only the lock holds it: dead
        outputs.push_back(Output{ref.order, Argument::ref(ref.node, ref.outputIndex), Tensor(alive)});
    }
    std::sort(outputs.begin(), outputs.end(), [](const Output& a, const Output& b) { return a.order < b.order; });
    std::vector<Argument> outputArgs;
    for (const auto& o : outputs) outputArgs.push_back(o.arg);
    graph_->setOutputs(outputArgs);
    for (const auto& node : graph_->nodes())  // Dynamo counts these before its graph drops the unused SymInts
        madeCalls_ = madeCalls_ || node->op == NodeOp::CallFunction || node->op == NodeOp::CallMethod;
    graph_->removeUnused([](const Node& n) { return !n.symbolicScalar.empty(); });  // SymInts no op read

    if (graph_->opCount() > 0) {
        std::string fingerprint = graph_->fingerprint();

        // A graph already compiled for this entry is reused wherever it occurs: after a
        // data-dependent break the code may take either path on later calls.
        Segments& segments = *ctx_.segments;
        Segment* segment = nullptr;
        int index = -1;
        for (size_t i = 0; i < segments.size(); ++i)
            if (segments[i].fingerprint == fingerprint) segment = &segments[i], index = static_cast<int>(i);
        if (!segment) {
            Segment fresh;
            fresh.graph = graph_;
            fresh.fingerprint = fingerprint;
            fresh.name = fmt::format("__compiled_fn_{}", ctx_.graphCounter ? (*ctx_.graphCounter)++ : 0);
            fresh.compileId = ctx_.compileId;
            fresh.function = ctx_.function;
            fresh.breakReason = reason;
            if (!reason.empty() && !breaks_.empty()) fresh.breakStack = breaks_.back().userStack;
            fresh.inputsFrom = inputsFrom_;
            if (!ctx_.recording && ctx_.logger)
                ctx_.logger->log("dynamo", LogLevel::Info, ctx_.compileId,
                                 fmt::format("compiled {} for {}: after a graph break the code took a path not "
                                             "seen before",
                                             fresh.name, ctx_.function));
            if (ctx_.logger) {
                ctx_.logger->artifact("graph", ctx_.compileId,
                                      fmt::format("TRACED GRAPH\n {} {}\n{}", fresh.name, ctx_.function, graphTabular(*graph_)));
                ctx_.logger->artifact("graph_code", ctx_.compileId,
                                      fmt::format("TRACED GRAPH\n ===== {} =====\n{}", fresh.name, graphReadable(*graph_)));
            }
            if (ctx_.bus)
                ctx_.bus->emit(GraphCapturedEvent{ctx_.compileId, ctx_.function, fresh.name, graphReadable(*graph_),
                                                  graphRunnable(*graph_, fresh.name), graphTabular(*graph_),
                                                  graphToJson(*graph_), graph_->opCount(), reason, ctx_.backend->name()});
            recordCapture(fresh.name);
            CompileRequest request{ctx_.compileId, ctx_.function, fresh.name, ctx_.logger, ctx_.bus};
            for (const Tensor& input : inputs_)
                if (input.defined() && !input.device().isCpu() && !input.isMeta()) request.device = input.device();
            request.backend = ctx_.backend->name();
            request.functionWhere = ctx_.functionWhere;
            request.exampleInputs = &inputs_;
            request.suppressErrors = ctx_.suppressErrors;
            request.settings = ctx_.settings;
            // SymInt nodes run as they are under the eager backend; the others compile those
            // a view's size does not need, and read SymFloats as tensors where they can.
            std::shared_ptr<const Graph> compiled = graph_;
            const bool compiling = notSymbolic_.empty() && ctx_.backend->name() != "eager";
            if (compiling && !symbolicScalarNodes(*graph_).empty()) compiled = withSizesFromMeta(*graph_);
            if (compiling)
                if (std::shared_ptr<Graph> tensorified = withFloatsAsTensors(*compiled)) compiled = tensorified;
            request.notSymbolic = compiling ? symbolicScalarNodes(*compiled) : notSymbolic_;
            // The compile's guards on the sizes (Inductor's), kept once it returns.
            struct SizeGuard {
                IndexExpr size;
                bool atMost;
                int64_t bound;
                std::string madeIn;
            };
            auto sizeGuards = std::make_shared<std::vector<SizeGuard>>();
            request.guardSize = [sizeGuards](const IndexExpr& size, bool atMost, int64_t bound, const std::string& madeIn) {
                sizeGuards->push_back({size, atMost, bound, madeIn});
            };
            if (ctx_.backend->throughAot() && notSymbolic_.empty()) guardSizesNotOne(*graph_);
            const int64_t compileStartNs = Profiler::nowNs();
            fresh.run = ctx_.backend->compile(compiled, request);
            for (const SizeGuard& g : *sizeGuards) guardCompiledSize(g.size, g.atMost, g.bound, g.madeIn);
            fresh.compileSeconds = static_cast<double>(Profiler::nowNs() - compileStartNs) * 1e-9;
            segments.push_back(std::move(fresh));
            segment = &segments.back();
            index = static_cast<int>(segments.size()) - 1;
        }
        if (ctx_.timeline && ctx_.timeline->last && ctx_.timeline->ranAfter)
            ctx_.timeline->ranAfter(*ctx_.timeline->last, *segment, flushStartNs - ctx_.timeline->lastRunEndNs);
        std::vector<Tensor> results = segment->run(inputs_);
        if (ctx_.direct) {
            std::vector<Tensor> made;
            for (const auto& o : outputs) made.push_back(o.tensor);
            ctx_.direct->graphRan(index, inputs_, made);
        }
        // The outputs' autograd is the compiled graph's: one CompiledFunctionBackward node
        // after AOT Autograd (aot/aot_function.h), else the nodes of the ops that made them.
        for (size_t i = 0; i < outputs.size() && i < results.size(); ++i) {
            const Tensor& out = outputs[i].tensor;
            out.become(results[i]);
            out.impl()->requiresGrad = results[i].requiresGrad();
            if (ctx_.timeline) ctx_.timeline->producedBy[out.impl()] = {out.implPtr(), InputLink{segment, static_cast<int>(i)}};
        }
        if (ctx_.timeline) {
            ctx_.timeline->last = segment;
            ctx_.timeline->lastRunEndNs = Profiler::nowNs();
        }
    }
    graph_ = std::make_shared<Graph>();
    ++graphGeneration_;
    symbolic_ = SymbolicSizes();
    notSymbolic_.clear();
    lazy_.clear();
    overrides_.clear();
    lifted_.clear();
    inputs_.clear();
    inputsFrom_.clear();
    graphStartNs_ = Profiler::nowNs();
}

void Tracer::recordCapture(const std::string& graphName) const {
    if (!Profiler::active()) return;
    TraceRecord r;
    r.category = TraceCategory::Compile;
    r.name = "capture " + graphName;
    r.compileId = ctx_.compileId;
    r.beginNs = graphStartNs_;
    r.endNs = Profiler::nowNs();
    Profiler::record(std::move(r));
}

}  // namespace fusescope
