#include "capture/direct_call.h"

#include <fmt/format.h>

#include "core/device_context.h"
#include "script/interpreter.h"
#include "script/object_model.h"
#include "script/types/type_slots.h"

namespace fusescope {

namespace {

const Value* containerItem(const Value& container, size_t index) {
    if (const ValueList* items = sequenceItems(container)) return index < items->size() ? &(*items)[index] : nullptr;
    if (auto* dict = container.as<DictObject>()) return index < dict->items.size() ? &dict->items[index].second : nullptr;
    return nullptr;
}

bool isPlainContainer(const Value& v) {
    return sequenceItems(v) || v.as<DictObject>() || v.as<SetObject>();
}

const Value& readTarget(const ObjectRead& read) {
    auto* instance = read.object.as<InstanceObject>();
    return instance ? instance->dictValue() : read.object;
}

bool readUnchanged(const ObjectRead& read) {
    auto* instance = read.object.as<InstanceObject>();
    if (instance && instance->cls != read.instanceClass) return false;
    return read.content.matches(readTarget(read));
}

bool variableUnchanged(const VariableRead& read) {
    auto it = read.scope->vars.find(read.name);
    if (it == read.scope->vars.end()) return !read.bound;
    return read.bound && read.value->matches(it->second);
}

bool gradUnchanged(const GradRead& read, const Tensor& base) {
    if (!base.defined()) return false;
    const auto& grad = base.impl()->autograd.grad;
    if (!grad) return !read.defined;
    return read.defined && read.layout.matches(Tensor(grad));
}

}  // namespace

// ---------------------------------------------------------------------------- the plan

Tensor DirectCallPlan::locate(const InputLocator& where, const Value& arguments) const {
    switch (where.kind) {
    case InputLocator::Kind::Held: return where.held;
    case InputLocator::Kind::Grad: {
        Tensor base = locate(grads_[where.grad].base, arguments);
        return base.defined() && base.impl()->autograd.grad ? Tensor(base.impl()->autograd.grad) : Tensor();
    }
    case InputLocator::Kind::Number: {
        const Value* number = containerItem(arguments, where.path.at(0));
        if (!number) return Tensor();
        if (number->isFloat()) return Tensor::scalar(number->asFloat(), DType::Float64);
        return Tensor::empty({1}, DType::Bool).asStrided({number->asInt()}, {0}, 0);
    }
    case InputLocator::Kind::Argument: break;
    }
    const Value* at = &arguments;
    for (size_t index : where.path)
        if (!(at = containerItem(*at, index))) return Tensor();
    return at->isTensor() ? at->asTensor() : Tensor();
}

bool DirectCallPlan::sameAliasing(const Value& arguments) const {
    std::vector<const TensorImpl*> impls;
    for (size_t i = 0; i < argumentTensors_.size(); ++i) {
        InputLocator where;
        where.kind = InputLocator::Kind::Argument;
        where.path = argumentTensors_[i];
        impls.push_back(locate(where, arguments).impl());
        if (sameTensorAs_[i] != i) {
            if (impls[i] != impls[sameTensorAs_[i]]) return false;
            continue;
        }
        for (size_t j = 0; j < i; ++j)
            if (impls[j] == impls[i]) return false;
    }
    return true;
}

bool DirectCallPlan::matches(const Value& function, const Value& arguments) const {
    if (!function.isObject() || function.asObject() != function_) return false;
    if (definitionsVersion() != definitions_ || defaultDevice() != defaultDevice_) return false;
    if (!arguments_.matches(arguments) || !sameAliasing(arguments)) return false;
    for (const ObjectRead& read : objects_)
        if (!readUnchanged(read)) return false;
    for (const VariableRead& read : variables_)
        if (!variableUnchanged(read)) return false;
    for (const GradRead& read : grads_)
        if (!gradUnchanged(read, locate(read.base, arguments))) return false;
    return true;
}

Value DirectCallPlan::build(const ResultTemplate& result, const std::vector<Tensor>& inputs,
                            const std::vector<Tensor>& outputs) const {
    switch (result.kind) {
    case ResultTemplate::Kind::Constant: return result.constant;
    case ResultTemplate::Kind::GraphOutput: return Value(outputs.at(result.index));
    case ResultTemplate::Kind::Input: return Value(inputs.at(result.index));
    case ResultTemplate::Kind::Tuple:
    case ResultTemplate::Kind::List: break;
    }
    ValueList items;
    for (const auto& item : result.items) items.push_back(build(item, inputs, outputs));
    return result.kind == ResultTemplate::Kind::Tuple ? makeTuple(std::move(items)) : makeList(std::move(items));
}

Value DirectCallPlan::run(const Value& arguments, const CompiledGraph* graph) const {
    std::vector<Tensor> inputs;
    inputs.reserve(inputs_.size());
    for (const InputLocator& where : inputs_) inputs.push_back(locate(where, arguments));
    std::vector<Tensor> outputs = graph ? (*graph)(inputs) : std::vector<Tensor>{};
    return build(result_, inputs, outputs);
}

// ------------------------------------------------------------------------ the recorder

DirectCallRecorder::DirectCallRecorder(const Value& function, const Value& arguments, std::vector<std::string> parameters)
    : arguments_(arguments), firstNewSerial_(CreationSerial::upcoming()), parameters_(std::move(parameters)) {
    plan_.function_ = function.isObject() ? function.asObject() : nullptr;
    plan_.definitions_ = definitionsVersion();
    plan_.defaultDevice_ = defaultDevice();
    auto snapshot = ValueSnapshot::take(arguments, false);
    if (!plan_.function_ || !snapshot) {
        refuse("its arguments nest too deeply to compare");
        return;
    }
    plan_.arguments_ = std::move(*snapshot);
    plan_.arguments_.forEachContainer([&](const Object* o) { seenObjects_.insert(o); });
    plan_.arguments_.forEachTensor([&](const Tensor& t, const std::vector<size_t>& path) {
        auto [first, added] = argumentTensors_.emplace(t.impl(), path);
        size_t index = plan_.argumentTensors_.size();
        if (!added)
            for (size_t i = 0; i < index; ++i)
                if (plan_.argumentTensors_[i] == first->second) index = i;
        plan_.sameTensorAs_.push_back(index);
        plan_.argumentTensors_.push_back(path);
    });
}

void DirectCallRecorder::scalarInput(const Tensor& carrier, const Source& source) {
    auto parameter = std::find(parameters_.begin(), parameters_.end(), source.name);
    if (source.kind == Source::Kind::Local && parameter != parameters_.end())
        numberArguments_.emplace(carrier.impl(), static_cast<size_t>(parameter - parameters_.begin()));
    else heldTensors_.emplace(carrier.impl(), carrier);
}

void DirectCallRecorder::refuse(const std::string& why) {
    if (refusal_.empty()) refusal_ = why;
}

void DirectCallRecorder::keepContents(const ValueSnapshot& snapshot) {
    snapshot.forEachContainer([&](const Object* o) { seenObjects_.insert(o); });
    snapshot.forEachTensor([&](const Tensor& t, const std::vector<size_t>&) { heldTensors_.emplace(t.impl(), t); });
}

void DirectCallRecorder::touch(const Value& object) {
    if (!refusal_.empty() || !object.isObject()) return;
    const Object* o = object.asObject().get();
    if (o->serial.value() >= firstNewSerial_ || seenObjects_.count(o)) return;
    if (isIterator(object)) return refuse("it advances an iterator made before the call");
    auto* instance = object.as<InstanceObject>();
    if (!instance && !isPlainContainer(object)) return;  // classes, modules, functions: definitionsVersion()
    seenObjects_.insert(o);
    ObjectRead read;
    read.object = object.unsourced();
    if (instance) read.instanceClass = instance->cls;
    auto content = ValueSnapshot::take(readTarget(read), true);
    if (!content) {
        refuse(fmt::format("it reads a {} nested too deeply to compare", pythonTypeName(object)));
        return;
    }
    read.content = std::move(*content);
    keepContents(read.content);
    plan_.objects_.push_back(std::move(read));
}

void DirectCallRecorder::touchVariable(const ScopePtr& scope, const std::string& name) {
    if (!refusal_.empty() || scope->serial.value() >= firstNewSerial_) return;
    if (!seenVariables_.emplace(scope.get(), name).second) return;
    VariableRead read{scope, name, false, std::nullopt};
    if (auto it = scope->vars.find(name); it != scope->vars.end()) {
        read.bound = true;
        read.value = ValueSnapshot::take(it->second, true);
        if (!read.value) {
            refuse(fmt::format("it reads '{}', nested too deeply to compare", name));
            return;
        }
        keepContents(*read.value);
    }
    plan_.variables_.push_back(std::move(read));
}

void DirectCallRecorder::gradRead(const Tensor& base) {
    if (!refusal_.empty() || gradReads_.count(base.impl())) return;
    GradRead read;
    const auto& grad = base.impl()->autograd.grad;
    read.defined = grad != nullptr;
    if (grad) {
        read.layout = TensorLayout::of(Tensor(grad));
        gradOf_.emplace(grad.get(), plan_.grads_.size());
    }
    gradReads_.emplace(base.impl(), plan_.grads_.size());
    gradBases_.push_back(base);
    plan_.grads_.push_back(std::move(read));
}

void DirectCallRecorder::graphRan(int segment, const std::vector<Tensor>& inputs, const std::vector<Tensor>& outputs) {
    if (ranGraph_) refuse("it runs more than one graph");
    ranGraph_ = true;
    plan_.segment_ = segment;
    graphInputs_ = inputs;
    for (const Tensor& out : outputs) graphOutputs_.push_back(out.impl());
}

std::optional<InputLocator> DirectCallRecorder::locateTensor(const Tensor& t) const {
    InputLocator where;
    if (auto it = argumentTensors_.find(t.impl()); it != argumentTensors_.end()) {
        where.kind = InputLocator::Kind::Argument;
        where.path = it->second;
        return where;
    }
    if (auto it = gradOf_.find(t.impl()); it != gradOf_.end()) {
        where.kind = InputLocator::Kind::Grad;
        where.grad = it->second;
        return where;
    }
    if (auto it = heldTensors_.find(t.impl()); it != heldTensors_.end()) {
        where.held = it->second;
        return where;
    }
    return std::nullopt;
}

std::optional<std::string> DirectCallRecorder::changedDuringCall() const {
    if (definitionsVersion() != plan_.definitions_) return "it changes a class, a module or a function's attributes";
    if (defaultDevice() != plan_.defaultDevice_) return "it sets the default device";
    if (!plan_.arguments_.matches(arguments_)) return "it changes its arguments";
    for (const ObjectRead& read : plan_.objects_)
        if (!readUnchanged(read))
            return fmt::format("it stores into an object made before the call ({})", pythonTypeName(read.object));
    for (const VariableRead& read : plan_.variables_)
        if (!variableUnchanged(read)) return fmt::format("it assigns '{}' outside its own scope", read.name);
    for (size_t i = 0; i < plan_.grads_.size(); ++i)
        if (!gradUnchanged(plan_.grads_[i], gradBases_[i])) return "it changes a tensor's .grad";
    return std::nullopt;
}

bool DirectCallRecorder::templateFor(const Value& value, ResultTemplate& out, std::string& why) const {
    if (value.symbolic() || value.symbolicFloat()) {  // computed from an input another call may change
        why = "it returns a Python number its graph computes";
        return false;
    }
    if (!value.isObject() && !value.isTensor()) {
        out.kind = ResultTemplate::Kind::Constant;
        out.constant = value.unsourced();
        return true;
    }
    if (value.isTensor()) {
        const TensorImpl* impl = value.asTensor().impl();
        for (size_t i = 0; i < graphOutputs_.size(); ++i)
            if (graphOutputs_[i] == impl) {
                out.kind = ResultTemplate::Kind::GraphOutput;
                out.index = i;
                return true;
            }
        for (size_t i = 0; i < graphInputs_.size(); ++i)
            if (graphInputs_[i].impl() == impl) {
                out.kind = ResultTemplate::Kind::Input;
                out.index = i;
                return true;
            }
        why = "it returns a tensor its graph neither reads nor makes";
        return false;
    }
    bool list = value.as<ListObject>() && typeid(*value.asObject()) == typeid(ListObject);
    bool tuple = value.as<TupleObject>() && typeid(*value.asObject()) == typeid(TupleObject);
    if ((!list && !tuple) || value.asObject()->serial.value() < firstNewSerial_) {
        why = fmt::format("it returns a {}", pythonTypeName(value));
        return false;
    }
    out.kind = list ? ResultTemplate::Kind::List : ResultTemplate::Kind::Tuple;
    for (const Value& item : *sequenceItems(value)) {
        out.items.emplace_back();
        if (!templateFor(item, out.items.back(), why)) return false;
    }
    return true;
}

std::variant<DirectCallPlan, std::string> DirectCallRecorder::finish(const Value& result) {
    if (!refusal_.empty()) return refusal_;
    if (auto changed = changedDuringCall()) return *changed;
    for (size_t i = 0; i < gradBases_.size(); ++i) {
        auto base = locateTensor(gradBases_[i]);
        if (!base || base->kind == InputLocator::Kind::Grad)
            return std::string("it reads the .grad of a tensor found in a way a direct call cannot follow");
        plan_.grads_[i].base = std::move(*base);
    }
    for (const Tensor& input : graphInputs_) {
        if (auto number = numberArguments_.find(input.impl()); number != numberArguments_.end()) {
            plan_.arguments_.acceptAnyNumberAt(number->second);
            plan_.inputs_.push_back(InputLocator{InputLocator::Kind::Number, {number->second}, Tensor(), 0});
            continue;
        }
        auto where = locateTensor(input);
        if (!where) return std::string("its graph reads a tensor found in a way a direct call cannot follow");
        plan_.inputs_.push_back(std::move(*where));
    }
    std::string why;
    if (!templateFor(result, plan_.result_, why)) return why;
    plan_.arguments_.releaseContents();
    return std::move(plan_);
}

}  // namespace fusescope
