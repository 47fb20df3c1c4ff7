// Dynamo's OptimizerVariable, for an optimizer the compiled code reads: the optimizer is matched
// by id, its param_groups whole where first read, its parameters by id (static: no
// TENSOR_MATCH). Dynamo does not trace the optimizer's _init_group: it runs it itself and then
// guards the state it left (map_sources_and_install_guards) and gives the items it put in the
// lists it was passed their sources (update_list_args). Tracer does the same.
#include <fmt/format.h>

#include "capture/tracer.h"

namespace fusescope {

bool Tracer::isOptimizer(const ClassObject& cls) {
    return std::any_of(cls.mro.begin(), cls.mro.end(), [](const ClassObject* c) { return c->displayName() == "torch.optim.optimizer.Optimizer"; });
}

// A tensor Dynamo marks static (mark_static_address): matched by id where first reached, its
// later sources not guarded again.
bool Tracer::matchStatic(const Value& tensor) {
    const Tensor& t = tensor.asTensor();
    staticTensors_.insert(t.impl());
    auto& sources = tensorSources_[t.impl()];
    if (!sources.empty()) return false;
    sources.push_back(tensor.source);
    Guard id;
    id.kind = Guard::Kind::IdMatch;
    id.source = tensor.source;
    id.constant = tensor.unsourced();
    id.typeName = t.impl()->isParameter ? "torch.nn.parameter.Parameter" : "torch.Tensor";
    addGuard(std::move(id));
    return true;
}

// OptimizerVariable's param_groups: read once, each group is guarded whole where it is read,
// its parameters by id, as _get_param_groups marks them.
void Tracer::guardParamGroups(const Value& groups) {
    onLengthUse(groups);
    const ValueList& items = groups.as<ListObject>()->items;
    for (size_t i = 0; i < items.size(); ++i) {
        auto* group = items[i].as<DictObject>();
        if (!group) continue;
        const SourcePtr groupSource = itemSource(groups.source, static_cast<int64_t>(i));
        Guard type;
        type.kind = Guard::Kind::TypeMatch;
        type.source = groupSource;
        type.typeName = "dict";
        addGuard(std::move(type));
        for (const auto& [key, item] : group->items) {
            if (!key.isString()) continue;
            const Value value = interp_.withSource(item, keySource(groupSource, key.asString()));
            const ValueList* params = value.as<ListObject>() ? sequenceItems(value) : nullptr;
            if (key.asString() == "capturable") capturableGroups_.insert(group);
            if (!params) {
                realizeAll(value);
                continue;
            }
            onLengthUse(value);
            for (size_t p = 0; p < params->size(); ++p)
                if ((*params)[p].isTensor()) matchStatic(interp_.withSource((*params)[p], itemSource(value.source, static_cast<int64_t>(p))));
        }
    }
}

// Dynamo's LazyVariableTracker.realize_all: a tuple (betas) is guarded with its items, here.
void Tracer::realizeAll(const Value& value) {
    if (auto* tuple = value.as<TupleObject>()) {
        onLengthUse(value);
        for (size_t i = 0; i < tuple->items.size(); ++i)
            realizeAll(interp_.withSource(tuple->items[i], itemSource(value.source, static_cast<int64_t>(i))));
        return;
    }
    onInputUse(value);
    if (value.source) unrealized_.erase(value.source->str());  // realized here, whatever reads it later
}

// Dynamo's OptimizerCapturableVariable: a param group's capturable reads True while the step is
// traced, on the CPU too, so Adam's step takes its tensor path rather than .item(); the group
// keeps its own value (guarded as it is).
std::optional<Value> Tracer::tracedDictItem(const Value& dict, const std::string& key) {
    if (key != "capturable" || !capturableGroups_.count(dict.as<DictObject>())) return std::nullopt;
    return Value(true);
}

namespace {

// Dynamo's get_python_args: an argument it can hand to _init_group is a constant, an empty list
// or one of the optimizer's param groups.
bool passable(const Value& arg, const std::string& groupsSource) {
    if (arg.isNumber() || arg.isString() || arg.isNone()) return true;
    if (const auto* list = arg.as<ListObject>()) return list->items.empty();
    return arg.as<DictObject>() && arg.source && arg.source->kind == Source::Kind::Item && arg.source->base->str() == groupsSource;
}

// The position of `tensor` among the dict's keys (by identity), or -1.
int64_t keyPosition(const DictObject& dict, const Tensor& tensor) {
    for (size_t i = 0; i < dict.items.size(); ++i)
        if (dict.items[i].first.isTensor() && dict.items[i].first.asTensor().impl() == tensor.impl()) return static_cast<int64_t>(i);
    return -1;
}

}  // namespace

std::optional<Value> Tracer::runInsteadOfTracing(const Value& callee, CallArgs& args) {
    const auto* bound = callee.as<BoundMethodObject>();
    const auto* fn = bound ? bound->function.as<FunctionObject>() : nullptr;
    const auto* optimizer = bound ? bound->self.as<InstanceObject>() : nullptr;
    if (!fn || fn->name != "_init_group" || !optimizer || !isOptimizer(*optimizer->cls) || !bound->self.source) return std::nullopt;
    const std::string groupsSource = attrSource(bound->self.source, "param_groups")->str();
    for (const Value& a : args.args)
        if (!passable(a, groupsSource)) return std::nullopt;
    for (const auto& [name, a] : args.kwargs)
        if (!passable(a, groupsSource)) return std::nullopt;

    Value result;
    {
        const HooksScope untraced(interp_, nullptr, nullptr);  // its own calls not compiled either: Dynamo calls it from its trace
        result = interp_.call(callee, args);
    }
    guardOptimizerState(bound->self);
    sourceFilledLists(bound->self, args);
    // a weak reference to the optimizer, kept as a global of Dynamo's own, must still be alive
    Guard alive;
    alive.kind = Guard::Kind::NotNone;
    alive.source = globalWeakRefSource(fmt::format("__optimizer_{}_{}_c{}", reinterpret_cast<uintptr_t>(optimizer),
                                                   reinterpret_cast<uintptr_t>(optimizer->dict.get()), ctx_.outputGraph),
                                       bound->self.source);
    addGuard(std::move(alive));
    return result.unsourced();
}

// map_sources_and_install_guards: every tensor of the state static; the state dict by its
// length (its keys, the parameters, unguarded) and its default_factory; and, as Dynamo's
// `if key_index:` does, each value of the state of the first parameter with a grad whose entry
// is not the state's first.
void Tracer::guardOptimizerState(const Value& optimizer) {
    const auto* instance = optimizer.as<InstanceObject>();
    const Value* state = instance->dict->findString("state");
    const Value* groups = instance->dict->findString("param_groups");
    if (!state || !state->as<DictObject>() || !groups || !groups->as<ListObject>()) return;
    onInputUse(interp_.withSource(*groups, attrSource(optimizer.source, "param_groups")));
    const SourcePtr stateSource = attrSource(optimizer.source, "state");
    const DictObject& entries = *state->as<DictObject>();
    for (const auto& [param, entry] : entries.items)
        if (const auto* values = entry.as<DictObject>())
            for (const auto& [key, value] : values->items)
                if (value.isTensor()) staticTensors_.insert(value.asTensor().impl());
    ValueList keys;
    for (const auto& [param, entry] : entries.items) keys.push_back(param);
    Guard order;
    order.kind = Guard::Kind::KeyOrder;
    order.source = stateSource;
    order.constant = makeList(std::move(keys));
    order.keysUnguarded = true;
    addGuard(std::move(order));
    if (const auto* defaulting = state->as<DefaultDictObject>())
        onCalleeUse(interp_.withSource(defaulting->defaultFactory, attrSource(stateSource, "default_factory")));

    for (const Value& group : groups->as<ListObject>()->items) {
        const Value* params = group.as<DictObject>() ? group.as<DictObject>()->findString("params") : nullptr;
        if (!params || !sequenceItems(*params)) continue;
        guardGrads(*sequenceItems(*params));
        for (const Value& param : *sequenceItems(*params)) {
            if (!param.isTensor() || tensorGrad(param.asTensor()).isNone()) continue;
            const int64_t position = keyPosition(entries, param.asTensor());

            if (position <= 0) continue;
            const SourcePtr entrySource = keyAtSource(stateSource, position);
            if (const auto* values = entries.items[static_cast<size_t>(position)].second.as<DictObject>())
                for (const auto& [key, value] : values->items) {
                    if (!key.isString()) continue;
                    const Value sourced = interp_.withSource(value, keySource(entrySource, key.asString()));
                    if (value.isTensor()) matchStatic(sourced);
                    else onInputUse(sourced);
                }
            break;
        }
    }
}

// Each parameter's grad: read (a direct call reads them again); one that is None guarded to stay None.
void Tracer::guardGrads(const ValueList& params) {
    for (const Value& param : params) {
        if (!param.isTensor()) continue;
        if (ctx_.direct) ctx_.direct->gradRead(param.asTensor());
        auto reached = tensorSources_.find(param.asTensor().impl());
        if (!tensorGrad(param.asTensor()).isNone() || reached == tensorSources_.end() || reached->second.empty()) continue;
        Guard none;
        none.kind = Guard::Kind::Constant;
        none.source = attrSource(reached->second.front(), "grad");
        addGuard(std::move(none));
    }
}

// update_list_args: what _init_group put in the lists it was passed, each by its source: a
// parameter as its group reads it, a grad as its parameter's, a tensor of the state by its
// place in the state (matched by id where the code first uses it).
void Tracer::sourceFilledLists(const Value& optimizer, CallArgs& args) {
    const auto* instance = optimizer.as<InstanceObject>();
    const Value* state = instance->dict->findString("state");
    const SourcePtr stateSource = attrSource(optimizer.source, "state");
    std::unordered_map<const TensorImpl*, SourcePtr> sources;
    if (const auto* entries = state ? state->as<DictObject>() : nullptr)
        for (size_t i = 0; i < entries->items.size(); ++i)
            if (const auto* values = entries->items[i].second.as<DictObject>())
                for (size_t j = 0; j < values->items.size(); ++j)
                    if (const Value& v = values->items[j].second; v.isTensor())
                        sources.emplace(v.asTensor().impl(), keyAtSource(keyAtSource(stateSource, static_cast<int64_t>(i)), static_cast<int64_t>(j)));
    for (const auto& [impl, reached] : tensorSources_)
        if (staticTensors_.count(impl) && !reached.empty()) {
            sources.emplace(impl, reached.front());
            if (const auto& grad = impl->autograd.grad) sources.emplace(grad.get(), attrSource(reached.front(), "grad"));
        }
    auto source = [&](Value& item) {
        auto found = item.isTensor() ? sources.find(item.asTensor().impl()) : sources.end();
        if (found == sources.end()) return;
        item = interp_.withSource(item, found->second);
        // a tensor of the state: matched where the code first uses it (Dynamo's lazy variable)
        if (staticTensors_.count(item.asTensor().impl()) && matchStatic(item) && ctx_.recording) unrealized_.insert(item.source->str());
    };
    for (Value& a : args.args)
        if (auto* list = a.as<ListObject>())
            for (Value& item : list->items) source(item);
}

}  // namespace fusescope
