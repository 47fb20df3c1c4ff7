// Statements, scopes and calls. Expressions are in interpreter_expr.cpp.
#include "script/interpreter.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <new>
#include <utility>
#include <variant>

#include <fmt/format.h>

#include "core/grad_mode.h"
#include "core/source_marker.h"
#include "script/graph_break_kinds.h"
#include "script/parser.h"
#include "script/set_operations.h"
#include "script/size_change_check.h"
#include "script/torch_lines.h"
#include "script/torch_names.h"
#include "script/types/type_slots.h"

namespace fusescope {

namespace {

constexpr int kMaxCallDepth = 150;

// Names a function body assigns (its locals), not looking into nested defs.
void collectTargetNames(const Expr& target, std::set<std::string>& names) {
    switch (target.kind) {
    case ExprKind::Name: names.insert(target.as<Name>().id); break;
    case ExprKind::Tuple:
        for (const auto& e : target.as<Tuple>().elts) collectTargetNames(*e, names);
        break;
    case ExprKind::List:
        for (const auto& e : target.as<List>().elts) collectTargetNames(*e, names);
        break;
    case ExprKind::Starred: collectTargetNames(*target.as<Starred>().value, names); break;
    default: break;
    }
}

void collectLocalNames(const StmtList& body, std::set<std::string>& names) {
    for (const auto& stmt : body) {
        switch (stmt->kind) {
        case StmtKind::Assign:
            for (const auto& t : stmt->as<Assign>().targets) collectTargetNames(*t, names);
            break;
        case StmtKind::AugAssign: collectTargetNames(*stmt->as<AugAssign>().target, names); break;
        case StmtKind::For:
            collectTargetNames(*stmt->as<For>().target, names);
            collectLocalNames(stmt->as<For>().body, names);
            collectLocalNames(stmt->as<For>().orelse, names);
            break;
        case StmtKind::While:
            collectLocalNames(stmt->as<While>().body, names);
            collectLocalNames(stmt->as<While>().orelse, names);
            break;
        case StmtKind::If:
            collectLocalNames(stmt->as<If>().body, names);
            collectLocalNames(stmt->as<If>().orelse, names);
            break;
        case StmtKind::With:
            for (const auto& item : stmt->as<With>().items)
                if (item.target) collectTargetNames(*item.target, names);
            collectLocalNames(stmt->as<With>().body, names);
            break;
        case StmtKind::FunctionDef: names.insert(stmt->as<FunctionDef>().name); break;
        case StmtKind::ClassDef: names.insert(stmt->as<ClassDef>().name); break;
        case StmtKind::AnnAssign: collectTargetNames(*stmt->as<AnnAssign>().target, names); break;
        case StmtKind::Try: {
            const auto& t = stmt->as<Try>();
            collectLocalNames(t.body, names);
            for (const auto& h : t.handlers) {
                if (!h.name.empty()) names.insert(h.name);
                collectLocalNames(h.body, names);
            }
            collectLocalNames(t.orelse, names);
            collectLocalNames(t.finalbody, names);
            break;
        }
        case StmtKind::Import:
            for (const auto& a : stmt->as<Import>().names) {
                std::string bound = a.asname.empty() ? a.name.substr(0, a.name.find('.')) : a.asname;
                names.insert(bound);
            }
            break;
        case StmtKind::ImportFrom:
            for (const auto& a : stmt->as<ImportFrom>().names) names.insert(a.asname.empty() ? a.name : a.asname);
            break;
        case StmtKind::Delete:
            for (const auto& t : stmt->as<Delete>().targets) collectTargetNames(*t, names);
            break;
        default: break;
        }
    }
}

std::string strip(const std::string& s) {
    size_t b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return "";
    size_t e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

}  // namespace

Interpreter::Interpreter(const Module& module, ScriptHost& host) : module_(module), host_(host) {
    globals_ = std::make_shared<Scope>();
    globals_->isModule = true;
    current_ = globals_;
    addPythonBuiltins(builtins_);
    objectClass_ = addObjectModelBuiltins(*this, builtins_);
    typeClass_ = makeTypeClass(*this, objectClass_);
    rootModules_["torch"] = makeTorchModule(configs_);
    rootModules_["math"] = makeMathModule();
    rootModules_["time"] = makeTimeModule();
    rootModules_["logging"] = makeLoggingModule();
    rootModules_["_collections"] = makeCollectionsModule();
    rootModules_["_system"] = makeSystemModule(module.fileName);
    rootModules_["_regex"] = makeRegexModule();
    rootModules_["_struct"] = makeStructModule(*this);
    rootModules_["binascii"] = makeBinasciiModule(*this);
    rootModules_["_pickle"] = makePickleModule(*this);
    rootModules_["safetensors"] = makeSafetensorsModule(*this);
    if (Value zlib = makeZlibModule(*this); !zlib.isNone()) rootModules_["zlib"] = zlib;
    addDynamoExceptions();
    globals_->vars["__name__"] = Value("__main__");
    globals_->vars["__file__"] = Value(module.fileName);
    mainGlobals_ = globals_;
    scriptDir_ = std::filesystem::path(module.fileName).parent_path().string();
}

Interpreter::~Interpreter() {
    closeGenerators();  // first, while everything their finally blocks may use is still here
    for (const auto& [address, weak] : std::exchange(storedInto_, {})) {
        ObjectPtr container = weak.lock();
        if (auto* list = dynamic_cast<ListObject*>(container.get())) list->items.clear();
        else if (auto* dict = dynamic_cast<DictObject*>(container.get())) dict->clear();
        else if (auto* set = dynamic_cast<SetObject*>(container.get())) set->clear();
    }
    for (const auto& weak : closureScopes_)
        if (ScopePtr scope = weak.lock()) scope->vars.clear();
    for (const auto& weak : objectDicts_)
        if (auto dict = weak.lock()) dict->clear();
    for (const auto& [name, module] : libraryGlobals_) module->vars.clear();
    for (const auto& [name, module] : scriptModules_) module.module.as<ModuleObject>()->globals->vars.clear();
    mainGlobals_->vars.clear();
    // Module attributes close cycles too (torch.nn.functional's functions are attributes of a
    // module their globals import): every module reachable from the roots is emptied, each
    // held here until all are found.
    std::vector<Value> modules;
    for (const auto& [name, module] : rootModules_) modules.push_back(module);
    for (size_t i = 0; i < modules.size(); ++i)
        if (const auto* module = modules[i].as<ModuleObject>())
            for (const auto& [name, value] : module->attrs)
                if (value.as<ModuleObject>() && std::none_of(modules.begin(), modules.end(), [&](const Value& m) {
                        return m.as<ModuleObject>() == value.as<ModuleObject>();
                    }))
                    modules.push_back(value);
    for (Value& module : modules)
        if (auto* m = module.as<ModuleObject>()) m->attrs.clear();
}

ScopePtr Interpreter::closureScope() {
    ScopePtr scope = current_;
    while (scope->classCell) scope = scope->parent;  // methods do not see their class body's names
    if (scope->isModule) return nullptr;
    if (closureScopes_.size() >= 1024 && (closureScopes_.size() & (closureScopes_.size() - 1)) == 0)
        std::erase_if(closureScopes_, [](const auto& weak) { return weak.expired(); });
    closureScopes_.push_back(scope);
    return scope;
}

void Interpreter::reportAtUserLine(Error& e, const SourceLocation& here) const {
    if (isScriptFile(here.file) && e.where().known() && !isScriptFile(e.where().file)) e.reportAt(here);
}

void Interpreter::noteStoredInto(const ObjectPtr& container) {
    auto [it, added] = storedInto_.try_emplace(container.get(), container);
    if (!added) {
        if (it->second.expired()) it->second = container;  // a new object where a freed one was
        return;
    }
    // Dropping the freed ones now and then keeps the map the size of what lives.
    if (storedInto_.size() >= 4096 && (storedInto_.size() & (storedInto_.size() - 1)) == 0)
        std::erase_if(storedInto_, [](const auto& entry) { return entry.second.expired(); });
}

std::string Interpreter::qualifiedName(const std::string& name) const {
    const Frame& frame = stack_.back();
    if (frame.qualname.empty()) return name;
    return frame.qualname + (frame.callee ? ".<locals>." : ".") + name;  // a function's names are its locals
}

void Interpreter::run() {
    stack_.push_back(Frame{.function = "<module>", .where = {module_.fileName, 1, 1}, .qualname = "", .self = Value()});
    Flow flow = exec(module_.body);
    (void)flow;
    stack_.pop_back();
}

void Interpreter::loadTorchLibrary(const SourceLocation& where) {
    if (torchLibraryLoaded_) return;
    torchLibraryLoaded_ = true;  // first: torch/nn.py imports torch itself
    auto& nn = *rootModules_.at("torch").as<ModuleObject>()->attrs.at("nn").as<ModuleObject>();
    auto& functional = *nn.attrs.at("functional").as<ModuleObject>();
    // torch._VF, torch's ops as torch.nn's Python code calls them (_VF.feature_dropout): the
    // library's composite ops, and the recurrent cells torch.nn.rnn adds.
    auto& torch = *rootModules_.at("torch").as<ModuleObject>();
    auto vf = std::make_shared<ModuleObject>();
    vf->name = "torch._VF";
    vf->moduleType = "torch._VF.VFModule";
    torch.attrs["_VF"] = Value(ObjectPtr(vf));
    Value functionalLibrary = loadLibraryModule("torch.nn.functional", where);
    for (const auto& [name, value] : functionalLibrary.as<ModuleObject>()->attrs)  // private ones too: F._canonical_mask
        if (value.as<FunctionObject>()) functional.attrs[name] = value;
    Value composites = loadLibraryModule("torch._composite", where);
    for (const auto& [name, value] : composites.as<ModuleObject>()->attrs)
        if ((value.as<FunctionObject>() || value.as<ClassObject>()) && name.front() != '_') {
            torch.attrs[name] = value;  // finfo is a class
            if (value.as<FunctionObject>()) vf->attrs[name] = value;
        }
    composites_ = composites;
    contextDecorator_ = loadLibraryModule("torch._decorators", where).as<ModuleObject>()->attrs.at("context_decorator");
    // Modules of PyTorch's C++ side the library's copies of torch's Python code call.
    auto nativeModule = [](const std::string& name, std::map<std::string, Value, std::less<>> attrs) {
        auto made = std::make_shared<ModuleObject>();
        made->name = name;
        made->attrs = std::move(attrs);
        return Value(ObjectPtr(made));
    };
    for (const char* library : {"torch.nn", "torch.nn.rnn", "torch.nn.transformer"}) {  // the later build on the first
        const Value loaded = loadLibraryModule(library, where);
        for (const auto& [name, value] : loaded.as<ModuleObject>()->attrs)
            if (value.as<ClassObject>()) nn.attrs[name] = value;
    }
    nn.attrs["utils"] = loadLibraryModule("torch.nn.utils", where);
    nn.attrs["init"] = loadLibraryModule("torch.nn.init", where);
    auto& optim = *torch.attrs.at("optim").as<ModuleObject>();
    optimizerModule_ = loadLibraryModule("torch.optim", where);
    for (const auto& [name, value] : optimizerModule_.as<ModuleObject>()->attrs)
        if (value.as<ClassObject>()) optim.attrs[name] = value;
    optimizerModule_.as<ModuleObject>()->name = "torch.optim.optimizer";  // from torch.optim.optimizer import Optimizer
    optim.attrs["optimizer"] = optimizerModule_;
    optim.attrs["lr_scheduler"] = loadLibraryModule("torch.optim.lr_scheduler", where);
    torch.attrs["jit"] = loadLibraryModule("torch.jit", where);
    torch.attrs["accelerator"] = loadLibraryModule("torch.accelerator", where);
    const Value determinism = loadLibraryModule("torch._determinism", where);
    for (const auto& [name, value] : determinism.as<ModuleObject>()->attrs)
        if (value.as<FunctionObject>()) torch.attrs[name] = value;
    // torch._C, PyTorch's C++ extension; _is_tracing: whether torch.jit.trace runs (never here);
    // _get_privateuse1_backend_name: the name of an out-of-tree device (none here: its default).
    torch.attrs["_C"] = nativeModule("torch._C", {{"_nn", nativeModule("torch._C._nn", {{"pad", functional.attrs.at("_pad")}})},
                                                  {"_is_tracing", makeBuiltin("torch._C._is_tracing", [](Interpreter&, CallArgs&) { return Value(false); })},
                                                  {"_get_privateuse1_backend_name", makeBuiltin("torch._C._get_privateuse1_backend_name",
                                                                                                [](Interpreter&, CallArgs&) { return Value("privateuseone"); })}});
    const Value setStance = loadLibraryModule("torch._stance", where).as<ModuleObject>()->attrs.at("set_stance");
    for (const char* module : {"compiler", "_dynamo"}) torch.attrs.at(module).as<ModuleObject>()->attrs["set_stance"] = setStance;
    const Value externalUtils = loadLibraryModule("torch._dynamo.external_utils", where);
    torch.attrs.at("_dynamo").as<ModuleObject>()->attrs["external_utils"] = externalUtils;
    wrapInline_ = externalUtils.as<ModuleObject>()->attrs.at("wrap_inline");
    // torch.amp, torch.autocast, and the deprecated torch.cpu.amp / torch.cuda.amp forms.
    const Value amp = loadLibraryModule("torch.amp", where);
    const auto& ampAttrs = amp.as<ModuleObject>()->attrs;
    torch.attrs["amp"] = amp;
    torch.attrs["autocast"] = ampAttrs.at("autocast");
    for (const char* device : {"cpu", "cuda"}) {
        auto deviceModule = std::make_shared<ModuleObject>();
        deviceModule->name = std::string("torch.") + device + ".amp";
        deviceModule->attrs["autocast"] = ampAttrs.at(std::string(device) + "_autocast");
        deviceModule->attrs["GradScaler"] = ampAttrs.at("GradScaler");
        Value& parent = torch.attrs[device];
        if (!parent.as<ModuleObject>()) {
            auto made = std::make_shared<ModuleObject>();
            made->name = std::string("torch.") + device;
            parent = Value(ObjectPtr(made));
        }
        parent.as<ModuleObject>()->attrs["amp"] = Value(ObjectPtr(deviceModule));
    }
    auto& autograd = *torch.attrs.at("autograd").as<ModuleObject>();
    autograd.attrs["function"] = loadLibraryModule("torch.autograd.function", where);
    autograd.attrs["Function"] = autograd.attrs["function"].as<ModuleObject>()->attrs.at("Function");
    for (const char* name : {"special", "linalg", "masked"}) torch.attrs[name] = loadLibraryModule(std::string("torch.") + name, where);
    auto signal = std::make_shared<ModuleObject>();  // torch.signal.windows.hann(...)
    signal->name = "torch.signal";
    signal->attrs["windows"] = loadLibraryModule("torch.signal.windows", where);
    torch.attrs["signal"] = Value(ObjectPtr(signal));
    nameClassesAsPyTorch();
}

void Interpreter::importDynamo() {
    if (dynamoImported_ || optimizerModule_.isNone()) return;
    dynamoImported_ = true;
    auto& torch = *rootModules_.at("torch").as<ModuleObject>();
    const Value dtensor = torch.attrs.at("distributed").as<ModuleObject>()->attrs.at("tensor").as<ModuleObject>()->attrs.at("DTensor");
    if (auto* types = optimizerModule_.as<ModuleObject>()->attrs.at("_foreach_supported_types").as<ListObject>()) types->items.push_back(dtensor);
}

// Each library class says the module PyTorch defines it in (its repr, __module__, and guards
// on it): torch.nn.Linear is <class 'torch.nn.modules.linear.Linear'> there.
void Interpreter::nameClassesAsPyTorch() {
    for (const TorchScopeNames& scope : torchScopeNames()) {
        const ModuleObject* module = scope.scope.starts_with("torch") ? loadedModule(std::string(scope.scope)) : nullptr;
        if (!module) continue;
        for (const auto& [name, definedIn] : scope.classes) {
            const Value* value = module->find(name);
            auto* cls = value ? value->as<ClassObject>() : nullptr;
            if (!cls || cls->isBuiltin()) continue;
            cls->module = std::string(definedIn);
            cls->dict->set(Value("__module__"), Value(cls->module));
        }
    }
}

Value Interpreter::callComposite(const std::string& name, ValueList args) {
    CallArgs call{.args = std::move(args), .kwargs = {}, .where = currentLocation()};
    return this->call(composites_.as<ModuleObject>()->attrs.at(name), call);
}

std::optional<Value> Interpreter::libraryTensorMethod(const Value& self, std::string_view name) {
    const Value* table = composites_.isNone() ? nullptr : composites_.as<ModuleObject>()->find("_tensor_methods");
    const Value* method = table && table->as<DictObject>() ? table->as<DictObject>()->findString(std::string(name)) : nullptr;
    if (!method) return std::nullopt;
    return makeBuiltin("Tensor." + std::string(name), [self, method = *method](Interpreter& in, CallArgs& args) {
        args.args.insert(args.args.begin(), self);
        return in.call(method, args);
    });
}

Value Interpreter::decorateWithContext(const ContextManagerObject& manager, const Value& function) {
    if (!touchedSlots(function)->call) fail("TypeError", "'" + pythonTypeName(function) + "' object is not callable");
    Value makeManager = makeBuiltin(manager.name, [remake = manager.remake](Interpreter&, CallArgs&) { return remake(); });
    CallArgs args{.args = {makeManager, function}, .kwargs = {}, .where = currentLocation()};
    return call(contextDecorator_, args);
}

const Module& Interpreter::moduleOf(const SourceLocation& where) const {
    for (const auto& m : libraryModules_)
        if (m->fileName == where.file) return *m;
    for (const auto& m : scriptModuleTrees_)
        if (m->fileName == where.file) return *m;
    return module_;
}

std::string Interpreter::sourceLine(const SourceLocation& where) const { return moduleOf(where).sourceLine(where.line); }

SourceLocation Interpreter::userLocation() const {
    if (site_.where.known() && isScriptFile(site_.where.file)) return site_.where;
    for (auto it = stack_.rbegin(); it != stack_.rend(); ++it)
        if (isScriptFile(it->where.file)) return it->where;
    return currentLocation();
}

SourceLocation Interpreter::currentLocation() const {
    if (site_.where.known()) return site_.where;
    return stack_.empty() ? SourceLocation{module_.fileName, 0, 0} : stack_.back().where;
}

SourceLocation Interpreter::torchLocation() const {
    SourceLocation at = currentLocation();
    if (stack_.empty() || isScriptFile(at.file)) return at;
    if (std::optional<TorchPlace> place = torchPlaceAt(stack_.back(), at)) {
        at.file = std::string(place->file);
        at.line = place->line;
    }
    return at;
}

void Interpreter::fail(const std::string& kind, const std::string& message) const {
    throw ScriptError(kind, message, currentLocation());
}

CallSite Interpreter::siteOf(const Expr& expr) const {
    CallSite site;
    site.where = expr.loc;
    site.endColumn = expr.endLine == expr.loc.line ? expr.endColumn : 0;
    if (expr.kind == ExprKind::BinOp) {
        site.opLoc = expr.as<BinOp>().opLoc;
        site.opLength = expr.as<BinOp>().opLength;
    }
    return site;
}

namespace {

// Dynamo's marker under the expression a frame is evaluating (format_source_range in
// torch/_dynamo/utils.py), aligned to the stripped line: '~' under the expression, '^' under
// a call's parenthesised arguments, a subscript's brackets or a binary operator, and '^'
// throughout any other expression. Empty for one spanning lines.
std::string expressionMarker(const Expr& e, const std::string& rawLine) {
    const int indent = static_cast<int>(std::min(rawLine.find_first_not_of(" \t"), rawLine.size()));
    const int start = e.loc.column - 1, end = std::min<int>(e.endColumn - 1, static_cast<int>(rawLine.size()));
    if (e.endLine != e.loc.line || start < indent || end <= start) return "";
    int left = -1, right = end;  // the '^' part, when anchored
    auto scan = [&](const Expr& before, char bracket) {
        if (before.endLine != e.loc.line) return;
        int c = before.endColumn - 1;
        while (c < end && rawLine[c] != bracket) ++c;
        left = c;
    };
    if (e.kind == ExprKind::Call) scan(*e.as<Call>().func, '(');
    else if (e.kind == ExprKind::Subscript) scan(*e.as<Subscript>().value, '[');
    else if (e.kind == ExprKind::BinOp && e.as<BinOp>().left->endLine == e.loc.line) {
        int c = e.as<BinOp>().left->endColumn - 1;
        while (c < end && (std::isspace(static_cast<unsigned char>(rawLine[c])) || rawLine[c] == ')')) ++c;
        left = c;
        right = c + 1;
        if (right < end && !std::isspace(static_cast<unsigned char>(rawLine[right])) && rawLine[right] != '\\' && rawLine[right] != '#')
            ++right;
    }
    return anchoredMarker(indent, start, end, left, right);
}

}  // namespace

// Module's _wrapped_call_impl (its __call__) calling _call_impl calling forward, at their
// lines in PyTorch's torch/nn/modules/module.py (the torch_lines table).
const std::vector<StackFrame>& moduleCallFrames() {
    static const std::vector<StackFrame> frames = [] {
        std::vector<StackFrame> made;
        constexpr std::string_view kReturn = "return ";
        for (const auto& [function, call] : {std::pair{"_wrapped_call_impl", "self._call_impl(*args, **kwargs)"},
                                             std::pair{"_call_impl", "forward_call(*args, **kwargs)"}}) {
            std::optional<TorchPlace> place = torchPlaceOf(std::string("Module.") + function, std::string(kReturn) + call);
            if (!place) continue;
            const std::string marker = std::string(kReturn.size(), ' ') + expressionMarker(*parseExpression(call, "module.py"), call);
            made.push_back(StackFrame{std::string(place->file), place->line, function, place->text, marker});
        }
        return made;
    }();
    return frames;
}

const Frame* Interpreter::compiledFrame() const {
    auto compiled = std::find_if(stack_.rbegin(), stack_.rend(), [](const Frame& f) { return f.traced && f.inlineDepth == 0; });
    return compiled == stack_.rend() ? nullptr : &*compiled;
}

std::vector<StackFrame> Interpreter::scriptStack(bool tracedOnly, bool withMarkers, bool torchFrames) const {
    std::vector<StackFrame> frames;
    // The traced frames are the compiled frame running now and those it inlines.
    const Frame* compiled = tracedOnly ? compiledFrame() : nullptr;
    const auto first = compiled ? stack_.begin() + (compiled - stack_.data()) : stack_.begin();
    for (auto it = first; it != stack_.end(); ++it) {
        const Frame& f = *it;
        if (tracedOnly && f.dynamoHandled) break;  // Dynamo's frames end at the call it makes itself
        if (tracedOnly && !f.traced) continue;
        // A graph break's traceback shows torch.nn's frames of each compiled module call around
        // the frame (Module's own call that ran as Python shows its own frames, at PyTorch's lines).
        const bool traceback = withMarkers && !tracedOnly;
        for (int i = 0; traceback && i < f.moduleCalls; ++i)
            frames.insert(frames.end(), moduleCallFrames().begin(), moduleCallFrames().end());
        SourceLocation at = f.where;
        if (torchFrames && f.line) at.line = f.line;  // Dynamo's frames are at the instruction's line
        // a comprehension running in the frame is a frame of its own under Python 3.11
        const std::size_t comprehensions = torchFrames ? f.comprehensions.size() : 0;
        for (std::size_t i = 0; i <= comprehensions; ++i) {
            SourceLocation here = at;
            if (i < comprehensions) here.line = f.comprehensions[i].line;
            const std::string function = i == 0 ? f.function : f.comprehensions[i - 1].function;
            const std::string line = sourceLine(here);
            if (!isScriptFile(here.file)) {  // library frames are torch's internals: shown where PyTorch has them
                std::optional<TorchPlace> place = torchFrames || withMarkers ? torchPlaceAt(f, here) : std::nullopt;
                if (!place) continue;
                frames.push_back(StackFrame{std::string(place->file), place->line, function, place->text, ""});
                if (withMarkers && f.pending && f.pending->loc.line == here.line) frames.back().marker = expressionMarker(*f.pending, line);
                continue;
            }
            frames.push_back(StackFrame{here.file, here.line, function, strip(line), ""});
            if (withMarkers && f.pending && f.pending->loc.line == here.line) frames.back().marker = expressionMarker(*f.pending, line);
        }
    }
    return frames;
}

std::optional<TorchPlace> Interpreter::torchPlaceAt(const Frame& f, const SourceLocation& at) const {
    const std::string code(codeOf(strip(sourceLine(at))));
    int occurrence = 0, occurrences = 0;
    if (f.callee && f.callee->def) {  // the code's equal lines in the function, and which of them this is
        const Module& module = moduleOf(at);
        for (int n = f.callee->def->loc.line; n <= f.callee->def->endLine; ++n) {
            if (codeOf(strip(module.sourceLine(n))) != code) continue;
            occurrence += n < at.line;
            ++occurrences;
        }
    }
    return torchPlaceOf(f.qualname, code, occurrence, std::max(occurrences, 1));
}

std::vector<StackFrame> Interpreter::tracedStack() const { return scriptStack(true); }

std::string Interpreter::strippedSourceLine(const SourceLocation& where) const { return strip(sourceLine(where)); }

std::vector<StackFrame> Interpreter::dynamoStack() const { return scriptStack(true, false, true); }

std::vector<StackFrame> Interpreter::userStack() const { return scriptStack(false); }

// ------------------------------------------------------------------------------- scopes

ScopePtr Interpreter::scopeFor(const std::string& name) {
    if (current_->globalNames.count(name)) return globals_;
    if (current_->nonlocalNames.count(name)) {
        for (ScopePtr s = current_->parent; s && !s->isModule; s = s->parent)
            if (s->vars.count(name)) return s;
        fail("SyntaxError", "no binding for nonlocal '" + name + "' found");
    }
    return current_;
}

void Interpreter::store(const std::string& name, Value value) {
    // The source stays: `y = x` still depends on the input x.
    ScopePtr scope = scopeFor(name);
    if (tracer_ && scope != current_) tracer_->onScopeTouch(scope, name);
    // A library module's global, set other than by the module's own code as it is imported
    // (what no one could have read before).
    const bool importing = scope == current_ && stack_.back().function == "<module>";
    if (scope->isModule && scope != mainGlobals_ && !importing) definitionsChanged();
    auto [it, added] = scope->vars.insert_or_assign(name, std::move(value));
    if (added && scope->classCell) scope->definitionOrder.push_back(name);
}

Value Interpreter::withSource(Value value, SourcePtr source) const {
    // Only data the graph can depend on is guarded: scalars, strings, tensors, containers, and
    // the modules and functions the code calls (by their ids).
    if (value.isObject() && !value.as<ListObject>() && !value.as<TupleObject>() && !value.as<InstanceObject>() &&
        !value.as<DictObject>() && !value.as<ModuleObject>() && !value.as<FunctionObject>() && !value.as<BuiltinFunction>() &&
        !value.as<TypeObject>() && !value.as<ClassObject>())
        return value;
    value.source = std::move(source);
    return value;
}

Value Interpreter::dictItem(const Value& dict, const std::string& key, const Value& item) {
    if (!tracer_ || !dict.source) return item;
    Value sourced = withSource(item, keySource(dict.source, key));
    if (sourced.source) tracer_->onInputUse(sourced);
    if (std::optional<Value> traced = tracer_->tracedDictItem(dict, key)) return *traced;
    return sourced;
}

Value Interpreter::dictItem(const Value& dict, const Value& key, const Value& item, size_t position) {
    if (!tracer_ || !dict.source) return item;
    if (tracer_->valuesByPosition(dict)) return withSource(item, keyAtSource(dict.source, static_cast<int64_t>(position)));
    if (key.isString()) return dictItem(dict, key.asString(), item);
    if (!key.isNumber() && !key.isNone()) return withSource(item, keyAtSource(dict.source, static_cast<int64_t>(position)));  // Dynamo's ConstDictKeySource
    if (!key.isInt() || key.isBool()) return item;
    Value sourced = withSource(item, intKeySource(dict.source, key.asInt()));
    if (sourced.source) tracer_->onInputUse(sourced);
    return sourced;
}

// A scope the compiled frame's function closed over: its variables are the frame's free
// variables, which Dynamo names as the frame's locals.
bool Interpreter::isCompiledFrameClosure(const ScopePtr& scope) const {
    const Frame& frame = stack_.back();
    if (!frame.traced || frame.inlineDepth != 0 || !frame.callee || !frame.callee->def) return false;
    for (ScopePtr s = frame.callee->closure; s && !s->isModule; s = s->parent)
        if (s == scope) return true;
    return false;
}

Value Interpreter::loaded(Value v) {
    if (!tracer_ || !v.source) return v;
    if (v.as<ModuleObject>())  // one module reached two ways is named the first way (Dynamo's object aliasing)
        if (SourcePtr first = tracer_->firstSourceOf(v)) v.source = std::move(first);
    if (std::optional<Value> symbolic = tracer_->symbolicInput(v)) return *symbolic;
    tracer_->onInputUse(v);
    return v;
}

Value Interpreter::lookup(const std::string& name, const SourceLocation& where) {
    auto found = [&](Value v) { return loaded(std::move(v)); };
    bool declaredGlobal = current_->globalNames.count(name) > 0;
    if (!declaredGlobal) {
        for (ScopePtr s = current_; s && !s->isModule; s = s->parent) {
            auto it = s->vars.find(name);
            if (it != s->vars.end()) {
                if (tracer_ && s != current_) {  // a closure's variable
                    tracer_->onScopeTouch(s, name);
                    if (!it->second.source && isCompiledFrameClosure(s)) return found(withSource(it->second, localSource(name)));
                    if (!it->second.source)
                        if (SourcePtr cell = closureCellSource(name)) return found(withSource(it->second, cell));
                }
                return found(it->second);
            }
            if (s == current_ && s->localNames && s->localNames->count(name) && !s->nonlocalNames.count(name))
                throw ScriptError("UnboundLocalError",
                                  "cannot access local variable '" + name + "' where it is not associated with a value",
                                  where);
        }
    }
    // A direct call checks the globals of the script and its modules it read (bound or not: a
    // builtin's name may be bound later); a library module's globals are its constants.
    const bool scriptGlobals = globals_ == mainGlobals_ || globals_->moduleSource;
    if (tracer_ && scriptGlobals) tracer_->onScopeTouch(globals_, name);
    auto it = globals_->vars.find(name);
    if (it != globals_->vars.end()) {
        // G['x'] names the script's globals; G['__import_model'].x a module's of its own, and
        // G['__import_torch_dot_nn_dot_modules_dot_linear'].F one of PyTorch's torch.nn.
        // A call Dynamo runs whole on fake tensors (F.dropout2d) reads its globals unseen.
        if (!tracer_ || (!scriptGlobals && inDynamoHandledCall())) return it->second;
        if (std::optional<Value> module = globalsModule()) {
            tracer_->onModuleUse(*module);
            return found(withSource(it->second, attrSource(module->source, name)));
        }
        if (scriptGlobals || readsCompiledTorchFrameGlobals()) return found(withSource(it->second, globalSource(name)));
        return it->second;
    }
    auto b = builtins_.find(name);
    if (b != builtins_.end()) {
        // Named as Dynamo names them where it traces the code: the script's and torch.nn's.
        if (SourcePtr source = tracer_ && (scriptGlobals || (!inDynamoHandledCall() && torchModuleOfFrame())) ? tracer_->builtinSource(name) : nullptr)
            return b->second.as<ClassObject>() ? loaded(withSource(b->second, source)) : withSource(b->second, source);  // a class read: by id
        return b->second;
    }
    // CPython's builtins (3.11's dir(builtins), less the exception classes), to say which are
    // missing here rather than undefined.
    static const std::set<std::string, std::less<>> pythonBuiltins = {
        "__build_class__", "__debug__", "__import__", "abs", "aiter", "all", "anext", "any", "ascii", "bin", "bool",
        "breakpoint", "bytearray", "bytes", "callable", "chr", "classmethod", "compile", "complex", "copyright", "credits",
        "delattr", "dict", "dir", "divmod", "enumerate", "eval", "exec", "exit", "filter", "float", "format", "frozenset",
        "getattr", "globals", "hasattr", "hash", "help", "hex", "id", "input", "int", "isinstance", "issubclass", "iter",
        "len", "license", "list", "locals", "map", "max", "memoryview", "min", "next", "object", "oct", "open", "ord", "pow",
        "print", "property", "quit", "range", "repr", "reversed", "round", "set", "setattr", "slice", "sorted",
        "staticmethod", "str", "sum", "super", "tuple", "type", "vars", "zip"};
    if (pythonBuiltins.count(name))
        throw ScriptError("NameError", "name '" + name + "' is not defined", where,
                          "'" + name + "' is a Python builtin that Fusescope scripts do not have yet");
    throw ScriptError("NameError", "name '" + name + "' is not defined", where);
}

const Value* Interpreter::findBuiltin(const std::string& name) const {
    auto it = builtins_.find(name);
    return it == builtins_.end() ? nullptr : &it->second;
}

const Value* Interpreter::global(const std::string& name) const {
    if (name.starts_with("__import_")) return importedModule(name);
    auto it = mainGlobals_->vars.find(name);
    return it == mainGlobals_->vars.end() ? nullptr : &it->second;
}

// ---------------------------------------------------------------------------- statements

Interpreter::Flow Interpreter::exec(const StmtList& body) {
    for (const auto& stmt : body) {
        Flow flow = exec(*stmt);
        if (flow != Flow::Normal) return flow;
    }
    return Flow::Normal;
}

void Interpreter::step(const SourceLocation& where) {
    if (host_.cancelRequested()) throw ScriptError("KeyboardInterrupt", "the run was cancelled", where);
    if (stepBudget_ && ++steps_ > stepBudget_)
        throw ScriptError("RuntimeError", fmt::format("the run went past its budget of {} steps", stepBudget_), where);
}

Interpreter::Flow Interpreter::exec(const Stmt& stmt) {
    stack_.back().where = stmt.loc;
    stack_.back().line = stmt.loc.line;
    site_ = CallSite{};
    step(stmt.loc);
    if (tracer_) tracer_->onStatement(stmt);
    try {
        switch (stmt.kind) {
        case StmtKind::Expr: eval(*stmt.as<ExprStmt>().value); return Flow::Normal;
        case StmtKind::Assign: {
            const auto& s = stmt.as<Assign>();
            Value value = eval(*s.value);
            for (const auto& target : s.targets) assign(*target, value);
            return Flow::Normal;
        }
        case StmtKind::AugAssign: augAssign(stmt.as<AugAssign>()); return Flow::Normal;
        case StmtKind::If: {
            const auto& s = stmt.as<If>();
            bool taken = testTruth(*s.test, true);
            if (tracer_) tracer_->resumeInBranch(*s.test, taken);
            return exec(taken ? s.body : s.orelse);
        }
        case StmtKind::For: return execFor(stmt.as<For>());
        case StmtKind::While: {
            const auto& s = stmt.as<While>();
            LoopScope loop(*this, stmt, nullptr);
            while (testTruth(*s.test)) {
                Flow flow = exec(s.body);
                if (flow == Flow::Break) return Flow::Normal;
                if (flow == Flow::Return) return flow;
                stack_.back().where = stmt.loc;
            }
            return exec(s.orelse);
        }
        case StmtKind::Break: return Flow::Break;
        case StmtKind::Continue: return Flow::Continue;
        case StmtKind::Return: {
            const auto& s = stmt.as<Return>();
            returnValue_ = s.value ? eval(*s.value) : Value();
            if (tracer_ && stack_.back().traced && stack_.back().inlineDepth == 0) tracer_->onReturn(returnValue_);
            return Flow::Return;
        }
        case StmtKind::Pass: return Flow::Normal;
        case StmtKind::FunctionDef: {
            const auto& def = stmt.as<FunctionDef>();
            store(def.name, applyDecorators(makeFunction(def), def.decorators));
            return Flow::Normal;
        }
        case StmtKind::ClassDef: return execClassDef(stmt.as<ClassDef>());
        case StmtKind::Try: return execTry(stmt.as<Try>());
        case StmtKind::AnnAssign: {
            const auto& s = stmt.as<AnnAssign>();
            if (s.value) assign(*s.target, eval(*s.value));
            if (current_->classCell && s.target->kind == ExprKind::Name) {
                if (!current_->vars.count("__annotations__")) store("__annotations__", Value(ObjectPtr(std::make_shared<DictObject>())));
                current_->vars["__annotations__"].as<DictObject>()->set(Value(s.target->as<Name>().id),
                                                                         Value(moduleOf(s.loc).sourceText(*s.annotation)));
            }
            return Flow::Normal;
        }
        case StmtKind::Import:
        case StmtKind::ImportFrom: execImport(stmt); return Flow::Normal;
        case StmtKind::With: return execWith(stmt.as<With>());
        case StmtKind::Global:
            for (const auto& n : stmt.as<Global>().names) current_->globalNames.insert(n);
            return Flow::Normal;
        case StmtKind::Nonlocal:
            for (const auto& n : stmt.as<Nonlocal>().names) current_->nonlocalNames.insert(n);
            return Flow::Normal;
        case StmtKind::Assert: {
            const auto& s = stmt.as<Assert>();
            if (truthy(eval(*s.test))) return Flow::Normal;
            std::string message = s.msg ? valueStr(eval(*s.msg)) : "";
            throw ScriptError("AssertionError", message, stmt.loc);
            return Flow::Normal;
        }
        case StmtKind::Raise: execRaise(stmt.as<Raise>());
        case StmtKind::Delete:
            for (const auto& t : stmt.as<Delete>().targets) execDelete(*t);
            return Flow::Normal;
        }
    } catch (Error& e) {
        e.setWhereIfUnknown(stmt.loc);
        reportAtUserLine(e, stmt.loc);
        throw;
    } catch (const std::bad_variant_access&) {
        // A builtin took a value of a type it does not check for ('a'.split(1), [].pop('x')).
        throw ScriptError("TypeError", "an argument has the wrong type", stmt.loc);
    } catch (const std::bad_alloc&) {
        throw ScriptError("MemoryError", "out of memory", stmt.loc);
    }
    return Flow::Normal;
}

Interpreter::LoopScope::LoopScope(Interpreter& in, const Stmt& stmt, const Value* iterable) : in_(in) {
    const Frame& frame = in.stack_.back();
    if (!frame.traced || frame.inlineDepth != 0) return;  // only the compiled frame's are asked for
    frame_ = in.stack_.size() - 1;
    in.stack_[frame_].loops.push_back(Frame::Loop{&stmt, iterable, 0});
}

Interpreter::LoopScope::~LoopScope() {
    if (frame_ != kNone && frame_ < in_.stack_.size()) in_.stack_[frame_].loops.pop_back();
}

void Interpreter::noteLoopIterator(const Value& instance, const Value& iterator, const FunctionObject* method) {
    if (!tracer_ || stack_.empty() || stack_.back().loops.empty()) return;
    Frame::Loop& loop = stack_.back().loops.back();
    if (loop.iterable && loop.iterable->isObject() && instance.isObject() && loop.iterable->asObject() == instance.asObject()) {
        loop.iterator = iterator;
        loop.iterMethod = method;
    }
}

void Interpreter::LoopScope::next() {
    if (frame_ != kNone && frame_ < in_.stack_.size()) ++in_.stack_[frame_].loops.back().taken;
}

Interpreter::Flow Interpreter::execFor(const For& stmt) {
    Value iterable = evalIterable(*stmt.iter);
    LoopScope loop(*this, stmt, &iterable);
    auto body = [&](const Value& item) {
        loop.next();
        assign(*stmt.target, item);
        Flow flow = exec(stmt.body);
        stack_.back().where = stmt.loc;
        return flow;
    };
    Flow result = Flow::Normal;
    forEachItem(iterable, [&](const Value& item) {
        result = body(item);
        return result != Flow::Break && result != Flow::Return;
    });
    if (result == Flow::Break) return Flow::Normal;
    if (result == Flow::Return) return result;
    return exec(stmt.orelse);
}

// Every loop over a value: an iterator's items one at a time (its next slot), a type's own
// lazy iteration (its iterate slot), else a container's snapshot (its items slot).
void Interpreter::forEachItem(const Value& iterable, const ItemVisitor& visit) {
    const TypeSlots* type = touchedSlots(iterable);
    if (type->next) {
        while (std::optional<Value> item = type->next(*this, iterable))
            if (!visit(*item)) return;
        return;
    }
    if (type->iterate) return type->iterate(*this, iterable, visit);
    if (!type->items) fail("TypeError", "'" + pythonTypeName(iterable) + "' object is not iterable");
    const SizeChangeCheck sameSize(iterable);
    for (const Value& item : type->items(*this, iterable)) {
        sameSize.check(*this);
        if (!visit(item)) return;
    }
    sameSize.check(*this, /*atEnd=*/true);
}

Interpreter::Flow Interpreter::execWith(const With& stmt) {
    std::vector<Value> entered;  // exited in reverse, each seeing the exception still pending
    std::exception_ptr pending;
    Flow flow = Flow::Normal;
    try {
        for (const auto& item : stmt.items) {
            Value manager = eval(*item.context);
            Value value;
            if (auto* cm = manager.as<ContextManagerObject>()) {
                value = cm->enter(*this);
            } else if (instanceClass(manager) && (*instanceClass(manager))->lookup("__exit__")) {
                auto result = callSpecial(manager, "__enter__", {});
                if (!result) fail("TypeError", "'" + pythonTypeName(manager) + "' object does not support the context manager protocol (missed __enter__ method)");
                value = *result;
            } else {
                fail("TypeError", "'" + pythonTypeName(manager) + "' object does not support the context manager protocol");
            }
            entered.push_back(manager);
            if (item.target) assign(*item.target, value);
        }
        const auto torchContexts = std::count_if(entered.begin(), entered.end(), [](const Value& m) { return m.as<ContextManagerObject>() != nullptr; });
        struct Inside {  // left however the body ends, its frame on top again then
            std::vector<Frame>& stack;
            std::ptrdiff_t count;
            ~Inside() { stack.back().torchContexts.resize(stack.back().torchContexts.size() - static_cast<std::size_t>(count)); }
        } inside{stack_, torchContexts};
        stack_.back().torchContexts.insert(stack_.back().torchContexts.end(), static_cast<std::size_t>(torchContexts), stmt.loc);
        flow = exec(stmt.body);
    } catch (const TraceRestart&) {
        for (auto it = entered.rbegin(); it != entered.rend(); ++it)  // torch's own managers restore their state
            if (auto* cm = it->as<ContextManagerObject>()) cm->exit(*this);
        throw;
    } catch (...) {
        pending = std::current_exception();
    }
    Value returning = returnValue_;
    for (auto it = entered.rbegin(); it != entered.rend(); ++it) {
        try {
            if (exitContext(*it, pending)) pending = nullptr;
        } catch (...) {
            pending = std::current_exception();
        }
    }
    returnValue_ = returning;
    if (pending) std::rethrow_exception(pending);
    return flow;
}

bool Interpreter::exitContext(const Value& manager, const std::exception_ptr& pending) {
    if (auto* cm = manager.as<ContextManagerObject>()) {
        cm->exit(*this);
        return false;
    }
    // __exit__(type, value, traceback): the exception being raised, or three Nones.
    ValueList args{Value(), Value(), Value()};
    if (pending) {
        try {
            std::rethrow_exception(pending);
        } catch (const ScriptError& e) {
            args[1] = exceptionValue(e);
            args[0] = typeOf(args[1]);
        } catch (...) {
        }
    }
    Value suppress = *callSpecial(manager, "__exit__", args);
    return !args[1].isNone() && truthy(suppress);
}

void Interpreter::execDelete(const Expr& target) {
    switch (target.kind) {
    case ExprKind::Name: {
        const std::string& name = target.as<Name>().id;
        ScopePtr scope = scopeFor(name);
        if (tracer_ && scope != current_) tracer_->onScopeTouch(scope, name);
        if (!scope->vars.erase(name)) fail("NameError", "name '" + name + "' is not defined");
        return;
    }
    case ExprKind::Attribute: {
        const auto& a = target.as<Attribute>();
        deleteAttribute(eval(*a.value), a.attr);
        return;
    }
    case ExprKind::Subscript: {
        const auto& s = target.as<Subscript>();
        Value object = eval(*s.value);
        deleteSubscript(object, eval(*s.index));
        return;
    }
    case ExprKind::Tuple:
    case ExprKind::List:
        for (const auto& e : target.kind == ExprKind::Tuple ? target.as<Tuple>().elts : target.as<List>().elts)
            execDelete(*e);
        return;
    default: fail("SyntaxError", "cannot delete expression");
    }
}

void Interpreter::assign(const Expr& target, const Value& value) {
    switch (target.kind) {
    case ExprKind::Name: store(target.as<Name>().id, value); return;
    case ExprKind::Tuple:
    case ExprKind::List: {
        const auto& elts = target.kind == ExprKind::Tuple ? target.as<Tuple>().elts : target.as<List>().elts;
        ValueList items = iterate(value);
        size_t starred = elts.size();
        for (size_t i = 0; i < elts.size(); ++i)
            if (elts[i]->kind == ExprKind::Starred) starred = i;
        if (starred == elts.size()) {
            if (items.size() != elts.size())
                fail("ValueError", items.size() > elts.size()
                                       ? fmt::format("too many values to unpack (expected {})", elts.size())
                                       : fmt::format("not enough values to unpack (expected {}, got {})", elts.size(), items.size()));
            for (size_t i = 0; i < elts.size(); ++i) assign(*elts[i], items[i]);
            return;
        }
        size_t after = elts.size() - starred - 1;
        if (items.size() < starred + after)
            fail("ValueError", fmt::format("not enough values to unpack (expected at least {}, got {})", starred + after, items.size()));
        for (size_t i = 0; i < starred; ++i) assign(*elts[i], items[i]);
        ValueList rest(items.begin() + starred, items.end() - after);
        assign(*elts[starred]->as<Starred>().value, makeList(rest));
        for (size_t i = 0; i < after; ++i) assign(*elts[starred + 1 + i], items[items.size() - after + i]);
        return;
    }
    case ExprKind::Attribute: {
        const auto& a = target.as<Attribute>();
        setAttribute(eval(*a.value), a.attr, value);
        return;
    }
    case ExprKind::Subscript: {
        const auto& s = target.as<Subscript>();
        Value object = eval(*s.value);
        Value index = eval(*s.index);
        assignSubscript(object, index, value);
        return;
    }
    default: fail("SyntaxError", "cannot assign to expression");
    }
}

void Interpreter::augAssign(const AugAssign& stmt) {
    CallSite site;
    site.where = stmt.loc;
    site.opLoc = stmt.opLoc;
    site.opLength = 2;
    Value current = eval(*stmt.target);
    Value operand = eval(*stmt.value);
    Value result = evalInPlace(stmt.op, current, operand, site);
    if (stmt.target->kind == ExprKind::Subscript) {
        const auto& s = stmt.target->as<Subscript>();
        if (current.isTensor() && result.isTensor() && result.asTensor().impl() == current.asTensor().impl())
            return;  // updated in place through the view
        assignSubscript(eval(*s.value), eval(*s.index), result);
        return;
    }
    assign(*stmt.target, result);
}

Value Interpreter::makeFunction(const FunctionDef& def) {
    auto fn = std::make_shared<FunctionObject>();
    fn->def = &def;
    fn->name = fn->codeName = def.name;
    fn->qualname = fn->codeQualname = qualifiedName(def.name);
    for (const auto& p : def.params)
        if (p.defaultValue) fn->defaults.push_back(eval(*p.defaultValue).unsourced());
    fn->closure = closureScope();
    fn->globals = globals_;
    fn->classCell = current_->classCell ? current_->classCell
                    : stack_.back().callee ? stack_.back().callee->classCell
                                             : nullptr;
    return Value(ObjectPtr(fn));
}

// ------------------------------------------------------------------------------- calls

Value Interpreter::call(const Value& callee, CallArgs& args) {
    const TypeSlots* type = touchedSlots(callee);
    if (!type->call) fail("TypeError", "'" + pythonTypeName(callee) + "' object is not callable");
    return type->call(*this, callee, args);
}

void Interpreter::runUntracedUntilReturn(const Expr& at, std::size_t frame, const FrameInterceptor* eager) {
    untracedCall_ = UntracedCall{&at, frame, tracer_, frameInterceptor_};
    tracer_ = nullptr;
    frameInterceptor_ = eager;
}

void Interpreter::endUntracedCall(const Expr& at) {
    if (!untracedCall_ || untracedCall_->at != &at || stack_.size() != untracedCall_->frame + 1) return;
    tracer_ = untracedCall_->tracer;
    frameInterceptor_ = untracedCall_->interceptor;
    untracedCall_.reset();
}

// A def called from here: inlined into the trace (one level deeper) when tracing.
Value Interpreter::callScriptFunction(const FunctionObject& fn, CallArgs& args) {
    if (!tracer_ && frameInterceptor_ && fn.def && !fn.def->isGenerator && (isScriptFile(fn.definedAt().file) || compilesAsTorchFrame(fn)))
        if (std::optional<Value> result = (*frameInterceptor_)(fn, args)) return *result;
    bool traced = tracer_ != nullptr;
    int depth = traced && !stack_.empty() ? stack_.back().inlineDepth + 1 : 0;
    if (traced && fn.closure && !fn.closure->isModule) realizeClosedOverItems(fn);
    return callFunction(fn, args, traced, depth);
}

// Dynamo realizes the items of a tuple or list an inlined closure's cells hold as it calls it
// (Module._call_impl's inner() and its args: the input's TENSOR_MATCH names that call); a
// tensor a cell holds itself is realized where the code uses it.
void Interpreter::realizeClosedOverItems(const FunctionObject& fn) {
    for (const auto& [name, unsourced] : freeVariables(fn))
        for (ScopePtr s = fn.closure; s && !s->isModule; s = s->parent)
            if (auto it = s->vars.find(name); it != s->vars.end()) {
                if (const ValueList* items = sequenceItems(it->second))
                    for (const Value& item : *items) realize(item);
                break;
            }
}

Value Interpreter::wrapInline(const Value& module) {
    CallArgs args;
    args.args.push_back(module);
    return call(wrapInline_, args);
}

// torch.compile's function: inlined when called from traced code, else the host's compiled call.
Value Interpreter::callCompiledFunction(CompiledFunctionObject& compiled, CallArgs& args) {
    if (!compiled.boundSelf.isNone()) args.args.insert(args.args.begin(), compiled.boundSelf);
    if (tracer_) return call(compiled.function, args);  // nested compiled calls are inlined
    return host_.callCompiled(*this, compiled, args);
}

std::vector<std::pair<std::string, Value>> Interpreter::bindArguments(const FunctionObject& fn,
                                                                    const CallArgs& args) const {
    const std::vector<Param>& params = fn.def ? fn.def->params : fn.lambda->params;
    std::vector<std::pair<std::string, Value>> bound;
    size_t positional = 0;
    size_t defaultIndex = 0;
    std::vector<bool> used(args.kwargs.size(), false);
    std::vector<std::string> missingPositional, missingKeywordOnly;
    size_t requiredPositional = 0;
    const Param* varKeywords = nullptr;
    // Assigned __defaults__ belong to the last positional parameters.
    const auto positionalCount = static_cast<int64_t>(std::count_if(params.begin(), params.end(), [](const Param& p) {
        return p.kind == ParamKind::PositionalOnly || p.kind == ParamKind::Positional;
    }));
    const int64_t firstAssigned = fn.assignedDefaults ? positionalCount - static_cast<int64_t>(fn.assignedDefaults->size()) : 0;
    int64_t positionalIndex = 0;
    // Which default a positional parameter takes is told by the count of __defaults__: Dynamo
    // guards it where the call first takes one.
    bool defaultsLengthGuarded = false;
    auto takePositionalDefault = [&] {
        if (tracer_ && !std::exchange(defaultsLengthGuarded, true)) tracer_->onLengthUse(withSource(fn.defaultsTuple(), args.defaultsSource));
    };
    if (params.empty() || params.back().kind != ParamKind::VarKeywords)  // else such a keyword goes to **kwargs
        for (const auto& p : params)
            for (const auto& kw : args.kwargs)
                if (p.kind == ParamKind::PositionalOnly && p.name == kw.first)
                    fail("TypeError", fn.name + "() got some positional-only arguments passed as keyword arguments: '" + p.name + "'");
    for (const auto& p : params) {
        if (p.kind == ParamKind::VarArgs) {
            ValueList extra;
            while (positional < args.args.size()) extra.push_back(args.args[positional++]);
            bound.emplace_back(p.name, makeTuple(extra));
            continue;
        }
        if (p.kind == ParamKind::VarKeywords) {
            varKeywords = &p;
            continue;
        }
        bool hasDefault = p.defaultValue != nullptr;
        int64_t inDefaults = static_cast<int64_t>(defaultIndex);  // its index in __defaults__ (a positional one's)
        Value defaultValue = hasDefault ? fn.defaults[defaultIndex++] : Value();
        const bool positionalOnly = p.kind == ParamKind::PositionalOnly;
        if (fn.assignedDefaults && (positionalOnly || p.kind == ParamKind::Positional)) {
            const int64_t at = positionalIndex++ - firstAssigned;
            hasDefault = at >= 0;
            inDefaults = at;
            defaultValue = hasDefault ? (*fn.assignedDefaults)[static_cast<size_t>(at)] : Value();
        }
        const bool sourcedDefault = args.defaultsSource && hasDefault && (positionalOnly || p.kind == ParamKind::Positional);
        if (sourcedDefault) defaultValue = withSource(std::move(defaultValue), itemSource(args.defaultsSource, inDefaults));
        if ((positionalOnly || p.kind == ParamKind::Positional) && !hasDefault) ++requiredPositional;
        if ((positionalOnly || p.kind == ParamKind::Positional) && positional < args.args.size()) {
            for (const auto& kw : args.kwargs)
                if (kw.first == p.name && !positionalOnly) fail("TypeError", fn.name + "() got multiple values for argument '" + p.name + "'");
            bound.emplace_back(p.name, args.args[positional++]);
            continue;
        }
        if (positionalOnly) {  // a keyword of its name is left for **kwargs, as Python leaves it
            if (!hasDefault) missingPositional.push_back(p.name);
            if (sourcedDefault) takePositionalDefault();
            bound.emplace_back(p.name, defaultValue);
            continue;
        }
        bool found = false;
        for (size_t k = 0; k < args.kwargs.size() && !found; ++k) {
            if (args.kwargs[k].first != p.name) continue;
            bound.emplace_back(p.name, args.kwargs[k].second);
            used[k] = found = true;
        }
        if (found) continue;
        if (!hasDefault) (p.kind == ParamKind::KeywordOnly ? missingKeywordOnly : missingPositional).push_back(p.name);
        if (sourcedDefault) takePositionalDefault();
        bound.emplace_back(p.name, defaultValue);
    }
    if (positional < args.args.size()) {  // "takes 1 positional argument", "takes from 1 to 2 positional arguments"
        const std::string count = requiredPositional == positional ? std::to_string(positional)
                                                                   : fmt::format("from {} to {}", requiredPositional, positional);
        fail("TypeError", fmt::format("{}() takes {} positional argument{} but {} {} given", fn.name, count, positional == 1 ? "" : "s",
                                      args.args.size(), args.args.size() == 1 ? "was" : "were"));
    }
    // CPython's words: "f() missing 2 required positional arguments: 'a' and 'b'".
    for (const auto& [missing, kind] : {std::pair{&missingPositional, "positional"}, std::pair{&missingKeywordOnly, "keyword-only"}}) {
        if (missing->empty()) continue;
        std::string names;
        for (size_t i = 0; i < missing->size(); ++i) {
            if (i) names += missing->size() == 2 ? " and " : i + 1 == missing->size() ? ", and " : ", ";
            names += "'" + (*missing)[i] + "'";
        }
        fail("TypeError", fmt::format("{}() missing {} required {} argument{}: {}", fn.name, missing->size(), kind,
                                      missing->size() == 1 ? "" : "s", names));
    }
    auto kwargsDict = std::make_shared<DictObject>();
    for (size_t k = 0; k < args.kwargs.size(); ++k) {
        if (used[k]) continue;
        if (!varKeywords) fail("TypeError", fn.name + "() got an unexpected keyword argument '" + args.kwargs[k].first + "'");
        kwargsDict->items.emplace_back(Value(args.kwargs[k].first), args.kwargs[k].second);
    }
    if (varKeywords) bound.emplace_back(varKeywords->name, Value(ObjectPtr(kwargsDict)));
    return bound;
}

const std::set<std::string>& Interpreter::localNamesOf(const FunctionObject& fn) const {
    auto cached = localNameCache_.find(fn.code());
    if (cached == localNameCache_.end()) {
        std::set<std::string> names;
        for (const auto& p : fn.def ? fn.def->params : fn.lambda->params) names.insert(p.name);
        if (fn.def) {
            collectLocalNames(fn.def->body, names);
            // a name the function declares nonlocal or global is not its local (declared at its top, as written)
            for (const auto& stmt : fn.def->body) {
                if (stmt->kind == StmtKind::Nonlocal)
                    for (const std::string& name : stmt->as<Nonlocal>().names) names.erase(name);
                if (stmt->kind == StmtKind::Global)
                    for (const std::string& name : stmt->as<Global>().names) names.erase(name);
            }
        }
        cached = localNameCache_.emplace(fn.code(), std::move(names)).first;
    }
    return cached->second;
}

const std::vector<std::string>& Interpreter::freeVariableNames(const FunctionObject& fn) const {
    static const std::vector<std::string> none;
    if (!fn.def || !fn.closure || fn.closure->isModule) return none;
    auto names = freeNameCache_.find(fn.code());
    if (names == freeNameCache_.end()) {  // which names are free is the code's: found once
        std::vector<std::string> found;
        const std::set<std::string>& locals = localNamesOf(fn);
        for (const std::string& name : fn.def->reads)  // a std::set: sorted, as co_freevars
            for (ScopePtr s = fn.closure; !locals.count(name) && s && !s->isModule; s = s->parent)
                if (s->vars.count(name) || (s->localNames && s->localNames->count(name))) {
                    found.push_back(name);
                    break;
                }
        names = freeNameCache_.emplace(fn.code(), std::move(found)).first;
    }
    return names->second;
}

std::vector<std::pair<std::string, Value>> Interpreter::freeVariables(const FunctionObject& fn) const {
    std::vector<std::pair<std::string, Value>> free;
    for (const std::string& name : freeVariableNames(fn))
        for (ScopePtr s = fn.closure; s && !s->isModule; s = s->parent)
            if (auto it = s->vars.find(name); it != s->vars.end()) {
                free.emplace_back(name, it->second.unsourced());
                break;
            }
    return free;
}

SourcePtr Interpreter::closureCellSource(const std::string& name) const {
    const Frame& frame = stack_.back();
    if (!frame.closureSource || !frame.callee) return nullptr;
    const std::vector<std::string>& names = freeVariableNames(*frame.callee);
    auto at = std::find(names.begin(), names.end(), name);
    return at == names.end() ? nullptr : cellContentsSource(frame.closureSource, at - names.begin(), name);
}

const Value& Interpreter::closureOf(const FunctionObject& fn) const {
    if (fn.closureKnown) return fn.closureValue;
    const std::vector<std::string>& names = freeVariableNames(fn);
    if (!names.empty()) {
        ValueList cells;
        for (const std::string& name : names) {
            auto cell = std::make_shared<CellObject>();
            cell->name = name;
            for (ScopePtr s = fn.closure; s && !s->isModule && !cell->scope; s = s->parent)
                if (s->vars.count(name) || (s->localNames && s->localNames->count(name))) cell->scope = s;
            cells.push_back(Value(ObjectPtr(cell)));
        }
        fn.closureValue = makeTuple(std::move(cells));
    }
    fn.closureKnown = true;
    return fn.closureValue;
}

Value Interpreter::callFunction(const FunctionObject& fn, CallArgs& args, bool traced, int depth, int moduleCalls) {
    if (static_cast<int>(stack_.size()) >= kMaxCallDepth)
        fail("RecursionError", "maximum recursion depth exceeded");
    if (fn.dynamoSkip == FunctionObject::DynamoSkip::Skipped) importDynamo();  // as torch._disable_dynamo's wrapper does when called
    if (fn.dynamoSkip != FunctionObject::DynamoSkip::No && tracer()) {  // at the call's line, as Dynamo reports it
        using enum FunctionObject::DynamoSkip;
        const std::string repr = fmt::format("<function {} at {}>", fn.qualname, static_cast<const void*>(&fn));
        tracer()->graphBreak(fn.dynamoSkip == Skipped    ? graph_breaks::skippedFunction(fn.qualname)
                             : fn.dynamoSkip == Disabled ? graph_breaks::disabledFunction(repr, fn.dynamoSkipReason)
                                                         : graph_breaks::fusescopeOnly("`" + fn.qualname + "`", fn.dynamoSkipReason));
        // The skipped function runs eagerly, untraced (its values real: autograd records
        // them, as for any eager call); tracing goes on after it returns.
        struct Untraced {
            Interpreter& in;
            TraceHooks* tracer;
            ~Untraced() { in.tracer_ = tracer; }
        } untraced{*this, tracer_};
        tracer_ = nullptr;
        return callFunction(fn, args, traced, depth);
    }
    const std::vector<Param>* params = fn.def ? &fn.def->params : &fn.lambda->params;
    auto scope = std::make_shared<Scope>();
    scope->parent = fn.closure;
    scope->localNames = &localNamesOf(fn);

    bool sourceArgs = traced && depth == 0;
    for (auto& [name, value] : bindArguments(fn, args)) {
        if (sourceArgs) value = withSource(std::move(value), localSource(name));
        scope->vars[name] = std::move(value);
    }
    SourceLocation where = fn.definedAt();
    Frame frame{.function = fn.codeName, .where = where, .traced = traced, .inlineDepth = depth, .callee = &fn, .moduleCalls = moduleCalls,
                .qualname = fn.codeQualname, .self = Value()};
    // (not the library's own wrappers around torch's functions: PyTorch's have no such closure)
    if (traced && depth > 0 && args.calleeSource && (isScriptFile(fn.definedAt().file) || isTracedTorchCode(fn)))
        frame.closureSource = args.calleeSource;
    frame.dynamoHandled = traced && depth > 0 && (stack_.back().dynamoHandled || dynamoHandles(fn));
    if (!params->empty() && (params->front().kind == ParamKind::Positional || params->front().kind == ParamKind::PositionalOnly))
        if (auto first = scope->vars.find(params->front().name); first != scope->vars.end() && first->second.as<InstanceObject>())
            frame.self = first->second;
    ScopePtr globals = fn.globals ? fn.globals : globals_;
    if (fn.def && fn.def->isGenerator)  // the body runs when the generator is first resumed
        return makeGenerator(std::move(frame), std::move(scope), std::move(globals), [this, def = fn.def] { return runBody(*def); },
                             std::const_pointer_cast<Object>(fn.shared_from_this()));

    ScopePtr saved = current_;
    ScopePtr savedGlobals = globals_;
    current_ = scope;
    globals_ = globals;
    stack_.push_back(std::move(frame));
    struct Restore {
        Interpreter& self;
        ScopePtr saved, savedGlobals;
        CallSite site;
        ~Restore() {
            self.current_ = saved;
            self.globals_ = savedGlobals;
            self.stack_.pop_back();
            self.site_ = site;
        }
    } restore{*this, saved, savedGlobals, site_};
    if (fn.lambda) return eval(*fn.lambda->body);
    return runBody(*fn.def);
}

Value Interpreter::runBody(const FunctionDef& def) {
    returnValue_ = Value();
    Flow flow = exec(def.body);
    Value result = flow == Flow::Return ? returnValue_ : Value();
    returnValue_ = Value();
    return result;
}

}  // namespace fusescope
