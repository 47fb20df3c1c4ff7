// The import statement: the engine's native modules, the script's own modules and packages
// (files beside it, found as Python finds them through sys.path[0]) and the script library.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "script/interpreter.h"
#include "script/parser.h"
#include "script/script_library.h"
#include "script/torch_lines.h"
#include "script/torch_names.h"

namespace fusescope {

namespace fs = std::filesystem;

namespace {

// A library module's syntax tree, parsed once per process: the trees are immutable, and
// parsing torch's library took most of a short script's run (8 of its 9 ms).
const Module& parsedLibraryModule(const LibraryModuleSource& source) {
    static std::mutex mutex;
    static std::map<std::string_view, std::unique_ptr<const Module>> parsed;
    std::lock_guard lock(mutex);
    auto& module = parsed[source.module];
    if (!module) module = parseScript(source.text, std::string(source.file));
    return *module;
}

std::string parentName(const std::string& dotted) {
    size_t dot = dotted.rfind('.');
    return dot == std::string::npos ? std::string() : dotted.substr(0, dot);
}

// The name Dynamo gives a module whose globals a traced function reads: G['__import_pkg_dot_mod'].
std::string importGlobalName(const std::string& dotted) {
    std::string name = "__import_";
    for (char c : dotted) name += c == '.' ? std::string("_dot_") : std::string(1, c);
    return name;
}

bool hasLibraryModule(const std::string& name) {
    const auto& sources = scriptLibrarySources();
    return std::any_of(sources.begin(), sources.end(), [&](const auto& s) { return s.module == name; });
}

}  // namespace

void Interpreter::runModuleBody(const Module& module, const ScopePtr& globals) {
    ScopePtr savedGlobals = globals_, savedCurrent = current_;
    TraceHooks* savedTracer = tracer_;
    globals_ = current_ = globals;
    tracer_ = nullptr;  // importing runs eagerly, as Dynamo runs imports outside the graph
    stack_.push_back(Frame{.function = "<module>", .where = {module.fileName, 1, 1}, .qualname = "", .self = Value()});
    struct Restore {
        Interpreter& self;
        ScopePtr globals, current;
        TraceHooks* tracer;
        ~Restore() {
            self.globals_ = globals;
            self.current_ = current;
            self.tracer_ = tracer;
            self.stack_.pop_back();
        }
    } restore{*this, savedGlobals, savedCurrent, savedTracer};
    exec(module.body);
}

Value Interpreter::loadLibraryModule(const std::string& name, const SourceLocation& where) {
    const auto& sources = scriptLibrarySources();
    auto source = std::find_if(sources.begin(), sources.end(), [&](const auto& s) { return s.module == name; });
    if (source == sources.end()) {
        std::set<std::string> names;  // the engine's modules and the library's top-level ones, torch first
        for (const auto& [module, value] : rootModules_)
            if (module != "torch" && module[0] != '_') names.insert(module);
        for (const auto& s : sources)
            if (s.module.find('.') == std::string_view::npos) names.insert(std::string(s.module));
        const std::string available = fmt::format("torch, {}", fmt::join(names, ", "));
        throw ScriptError("ModuleNotFoundError", "No module named '" + name + "'", where,
                          "Fusescope scripts import " + available + " and their own modules beside them");
    }
    const Module& module = parsedLibraryModule(*source);
    libraryModules_.push_back(&module);
    auto globals = std::make_shared<Scope>();
    globals->isModule = true;
    globals->vars["__name__"] = Value(name);
    libraryGlobals_.emplace_back(name, globals);
    runModuleBody(module, globals);
    auto object = std::make_shared<ModuleObject>();
    object->name = name;
    for (const auto& [key, value] : globals->vars) object->attrs[key] = value;
    return Value(ObjectPtr(object));
}

std::vector<std::string> Interpreter::searchPath() const {
    if (auto sys = rootModules_.find("sys"); sys != rootModules_.end())
        if (const auto* module = sys->second.as<ModuleObject>())
            if (auto path = module->attrs.find("path"); path != module->attrs.end())
                if (const auto* list = path->second.as<ListObject>()) {
                    std::vector<std::string> folders;
                    for (const Value& entry : list->items)
                        if (entry.isString()) folders.push_back(entry.asString());  // Python skips what is not text too
                    return folders;
                }
    return {scriptDir_};
}

namespace {

// A module file or package folder, among the files sent with the script first, then on disk.
bool sentOrOnDisk(const std::map<std::string, std::string>* sent, const fs::path& path, bool folder) {
    const std::string key = path.lexically_normal().string();
    if (sent && !folder && sent->count(key)) return true;
    if (sent && folder) {
        auto after = sent->lower_bound(key + "/");
        if (after != sent->end() && after->first.starts_with(key + "/")) return true;
    }
    std::error_code ec;
    return folder ? fs::is_directory(path, ec) : fs::is_regular_file(path, ec);
}

const std::string* sentText(const std::map<std::string, std::string>* sent, const std::string& path) {
    auto it = sent ? sent->find(path) : std::map<std::string, std::string>::const_iterator();
    return sent && it != sent->end() ? &it->second : nullptr;
}

}  // namespace

std::optional<Interpreter::ScriptModuleFile> Interpreter::findScriptModule(const std::string& dotted) const {
    std::vector<std::string> folders;
    if (std::string parent = parentName(dotted); !parent.empty()) {
        auto it = scriptModules_.find(parent);
        if (it == scriptModules_.end() || it->second.dir.empty()) return std::nullopt;
        folders = {it->second.dir};
    } else {
        folders = searchPath();
    }
    // As Python's path finder looks in each folder in turn: a package, then a module; a
    // namespace package (a folder without __init__.py) only when no folder has either.
    const std::string name = dotted.substr(dotted.rfind('.') + 1);
    std::optional<ScriptModuleFile> namespacePackage;
    for (const std::string& dir : folders) {
        fs::path folder = fs::path(dir) / name;
        if (sentOrOnDisk(sentFiles_, folder / "__init__.py", false))
            return ScriptModuleFile{(folder / "__init__.py").lexically_normal().string(), folder.lexically_normal().string()};
        if (fs::path file = folder.string() + ".py"; sentOrOnDisk(sentFiles_, file, false))
            return ScriptModuleFile{file.lexically_normal().string(), ""};
        if (!namespacePackage && sentOrOnDisk(sentFiles_, folder, true)) namespacePackage = ScriptModuleFile{"", folder.lexically_normal().string()};
    }
    return namespacePackage;
}

Value Interpreter::loadScriptModule(const std::string& dotted, const ScriptModuleFile& found, const SourceLocation& where) {
    const Module* module = nullptr;
    if (!found.file.empty()) {  // a namespace package (a folder without __init__.py) has no code
        std::string source;
        if (const std::string* sent = sentText(sentFiles_, found.file)) {
            source = *sent;
        } else {
            std::ifstream in(found.file, std::ios::binary);
            std::stringstream text;
            text << in.rdbuf();
            if (!in) throw ScriptError("ImportError", "cannot read '" + found.file + "', the module '" + dotted + "'", where);
            source = text.str();
        }
        scriptFiles_.insert(found.file);  // first: a SyntaxError in it is reported there
        scriptModuleTrees_.push_back(parseScript(source, found.file));
        module = scriptModuleTrees_.back().get();
        // Its path from the script's folder: "pkg/layers.py", or "../common/util.py" for a folder
        // the script put on sys.path.
        std::error_code ec;
        fs::path fromScript = fs::absolute(found.file, ec).lexically_relative(fs::absolute(scriptDir_.empty() ? "." : scriptDir_, ec));
        host_.moduleImported(found.file, fromScript.empty() ? found.file : fromScript.string(), source);
    }
    const bool package = !found.dir.empty();
    auto globals = std::make_shared<Scope>();
    globals->isModule = true;
    globals->moduleSource = globalSource(importGlobalName(dotted));
    globals->vars["__name__"] = Value(dotted);
    globals->vars["__file__"] = found.file.empty() ? Value() : Value(found.file);
    globals->vars["__package__"] = Value(package ? dotted : parentName(dotted));
    if (package) globals->vars["__path__"] = makeList({Value(found.dir)});
    auto object = std::make_shared<ModuleObject>();
    object->name = dotted;
    object->globals = globals;
    Value value{ObjectPtr(object)};
    // In sys.modules before its body runs, so a circular import finds it, partly made.
    scriptModules_[dotted] = ScriptModule{value, found.file, found.dir, importGlobalName(dotted)};
    try {
        if (module) runModuleBody(*module, globals);
    } catch (...) {
        scriptModules_.erase(dotted);  // as Python drops a module whose body failed
        throw;
    }
    if (std::string parent = parentName(dotted); !parent.empty())  // import pkg.sub binds pkg.sub
        scriptModules_.at(parent).module.as<ModuleObject>()->globals->vars[dotted.substr(parent.size() + 1)] = value;
    return value;
}

const ModuleObject* Interpreter::loadedModule(const std::string& dotted) const {
    std::string parent = parentName(dotted);
    if (parent.empty()) {
        auto it = rootModules_.find(dotted);
        return it == rootModules_.end() ? nullptr : it->second.as<ModuleObject>();
    }
    const ModuleObject* outer = loadedModule(parent);
    const Value* child = outer ? outer->find(dotted.substr(parent.size() + 1)) : nullptr;
    return child ? child->as<ModuleObject>() : nullptr;
}

Value Interpreter::importModule(const std::string& dotted, const SourceLocation& where) {
    if (auto it = scriptModules_.find(dotted); it != scriptModules_.end()) return it->second.module;
    std::string parent = parentName(dotted);
    if (parent.empty()) {
        if (auto it = rootModules_.find(dotted); it != rootModules_.end()) {
            if (dotted == "torch") loadTorchLibrary(where);
            return it->second;
        }
        if (auto found = findScriptModule(dotted)) return loadScriptModule(dotted, *found, where);
        return rootModules_.emplace(dotted, loadLibraryModule(dotted, where)).first->second;
    }
    Value outer = importModule(parent, where);
    if (scriptModules_.count(parent)) {
        if (auto found = findScriptModule(dotted)) return loadScriptModule(dotted, *found, where);
        const bool package = !scriptModules_.at(parent).dir.empty();
        throw ScriptError("ModuleNotFoundError",
                          package ? fmt::format("No module named '{}'", dotted)
                                  : fmt::format("No module named '{}'; '{}' is not a package", dotted, parent),
                          where);
    }
    auto* m = outer.as<ModuleObject>();
    const std::string child = dotted.substr(parent.size() + 1);
    auto attr = m->attrs.find(child);
    if (dotted == "torch._dynamo") importDynamo();
    if (attr != m->attrs.end() && attr->second.as<ModuleObject>()) return attr->second;
    if (hasLibraryModule(dotted)) return m->attrs[child] = loadLibraryModule(dotted, where);  // torch.utils.data, ...
    throw ScriptError("ModuleNotFoundError", "No module named '" + dotted + "' in Fusescope", where);
}

std::string Interpreter::absoluteImportName(const ImportFrom& s) const {
    if (s.level == 0) return s.module;
    auto package = globals_->vars.find("__package__");
    std::string base = package != globals_->vars.end() && package->second.isString() ? package->second.asString() : "";
    if (base.empty()) fail("ImportError", "attempted relative import with no known parent package");
    for (int level = 1; level < s.level; ++level) {
        if (base.find('.') == std::string::npos) fail("ImportError", "attempted relative import beyond top-level package");
        base = parentName(base);
    }
    return s.module.empty() ? base : base + "." + s.module;
}

void Interpreter::execImport(const Stmt& stmt) {
    if (stmt.kind == StmtKind::Import) {
        for (const auto& alias : stmt.as<Import>().names) {
            Value module = importModule(alias.name, alias.loc);
            // `import a.b` binds a; `import a.b as c` binds the module a.b.
            if (alias.asname.empty()) store(alias.name.substr(0, alias.name.find('.')), importModule(alias.name.substr(0, alias.name.find('.')), alias.loc));
            else store(alias.asname, module);
        }
        return;
    }
    const auto& s = stmt.as<ImportFrom>();
    const std::string from = absoluteImportName(s);
    Value module = importModule(from, stmt.loc);
    auto* m = module.as<ModuleObject>();
    for (const auto& alias : s.names) {
        if (alias.name == "*") {
            importStar(*m, from, alias.loc);
            continue;
        }
        const Value* found = m->find(alias.name);
        // A name the package does not have yet may be its submodule: from pkg import sub (the
        // script's or the library's: from collections import abc).
        const auto& library = scriptLibrarySources();
        const bool librarySubmodule = std::any_of(library.begin(), library.end(), [&](const auto& source) { return source.module == from + "." + alias.name; });
        if (!found && (librarySubmodule || (scriptModules_.count(from) && findScriptModule(from + "." + alias.name)))) {
            importModule(from + "." + alias.name, alias.loc);
            found = m->find(alias.name);
        }
        if (!found) {
            std::string where;  // where Python says the module is; for an engine or library module, what it lacks
            if (auto it = scriptModules_.find(from); it != scriptModules_.end())
                where = " (" + (it->second.file.empty() ? std::string("unknown location") : it->second.file) + ")";
            else if (torchHasName(m->name, alias.name))
                where = missingAttributeNote(m->name, alias.name, {});
            throw ScriptError("ImportError", "cannot import name '" + alias.name + "' from '" + from + "'" + where, alias.loc);
        }
        store(alias.asname.empty() ? alias.name : alias.asname, *found);
    }
}

// from m import *: the names m lists in __all__, else every name not starting with '_'.
void Interpreter::importStar(const ModuleObject& module, const std::string& from, const SourceLocation& where) {
    std::vector<std::string> names;
    if (const Value* all = module.find("__all__")) {
        for (const Value& name : iterate(*all)) {
            if (!name.isString()) fail("TypeError", "Item in " + from + ".__all__ must be str, not " + pythonTypeName(name));
            names.push_back(name.asString());
        }
    } else {
        for (const auto& [name, value] : module.attrs) names.push_back(name);
        if (module.globals)
            for (const auto& [name, value] : module.globals->vars) names.push_back(name);
        std::erase_if(names, [](const std::string& name) { return name.starts_with("_"); });
        std::sort(names.begin(), names.end());
        names.erase(std::unique(names.begin(), names.end()), names.end());
    }
    for (const std::string& name : names) {
        const Value* value = module.find(name);
        if (!value) throw ScriptError("AttributeError", "module '" + from + "' has no attribute '" + name + "'", where);
        store(name, *value);
    }
}

bool Interpreter::isScriptFile(const std::string& file) const { return file == module_.fileName || scriptFiles_.count(file); }

const Value* Interpreter::importedModule(const std::string& globalName) const {
    for (const auto& [dotted, entry] : scriptModules_)
        if (entry.globalName == globalName) return &entry.module;
    auto view = torchModuleViews_.find(globalName);
    return view == torchModuleViews_.end() ? nullptr : &view->second;
}

std::optional<Value> Interpreter::globalsModule() const {
    if (globals_ == mainGlobals_) return std::nullopt;
    if (globals_->moduleSource) {
        for (auto frame = stack_.rbegin(); frame != stack_.rend(); ++frame)
            if (frame->traced && frame->inlineDepth == 0) {
                if (frame->callee && frame->callee->globals == globals_) return std::nullopt;
                break;
            }
        for (const auto& [dotted, entry] : scriptModules_)
            if (entry.globalName == globals_->moduleSource->name) return withSource(entry.module, globals_->moduleSource);
        return std::nullopt;
    }
    if (readsCompiledTorchFrameGlobals()) return std::nullopt;
    return torchModuleOfFrame();
}

Value Interpreter::torchModuleSourced(const std::string& dotted) {
    const std::string globalName = importGlobalName(dotted);
    Value& module = torchModuleViews_[globalName];
    if (!module.isObject()) module = importModule(dotted, currentLocation());
    return withSource(module, globalSource(globalName));
}

// Dynamo inlines torch.nn's methods and names their global reads through the module that
// defines them; Fusescope's torch.nn method is taken for PyTorch's where its line is PyTorch's.
std::optional<Value> Interpreter::torchModuleOfFrame() const {
    const Frame& frame = stack_.back();
    if (!frame.callee && !isGeneratorExpressionFrame(frame)) return std::nullopt;
    const std::string& dotted = torchModuleAt(frame);
    if (dotted.empty()) return std::nullopt;
    const std::string globalName = importGlobalName(dotted);
    Value& view = torchModuleViews_[globalName];
    if (!view.isObject()) {
        auto made = std::make_shared<ModuleObject>();
        made->name = dotted;
        made->globals = globals_;
        view = Value(ObjectPtr(made));
    }
    return withSource(view, globalSource(globalName));
}

// The PyTorch module whose file has the frame's line ("torch/nn/modules/linear.py":
// torch.nn.modules.linear), found once per line (globals are read often); empty for none.
const std::string& Interpreter::torchModuleAt(const Frame& frame) const {
    auto moduleOf = [&] {
        std::optional<TorchPlace> place = torchPlaceAt(frame, frame.where);
        if (!place) return std::string();
        std::string dotted(place->file.substr(0, place->file.size() - 3));
        std::replace(dotted.begin(), dotted.end(), '/', '.');
        return dotted;
    };
    if (!frame.callee) {  // a generator expression's frame, of no function of its own: by its qualified name
        auto [module, added] = torchGeneratorModules_.try_emplace({frame.qualname, frame.where.line});
        if (added) module->second = moduleOf();
        return module->second;
    }
    auto [module, added] = torchLineModules_.try_emplace({frame.callee, frame.where.line});
    if (added) module->second = moduleOf();
    return module->second;
}

// A torch function compiled as a frame of its own (SGD.step) reads its module's globals as
// the frame's: G['sgd'], where a function it inlines from another module reads through that
// module (G['__import_torch_dot_optim_dot_optimizer'].torch).
bool Interpreter::readsCompiledTorchFrameGlobals() const {
    const Frame* compiled = compiledFrame();
    if (!compiled || !compiled->callee || (!stack_.back().callee && !isGeneratorExpressionFrame(stack_.back())) ||
        isScriptFile(compiled->where.file))
        return false;
    const std::string& own = torchModuleAt(*compiled);
    return !own.empty() && own == torchModuleAt(stack_.back());
}

}  // namespace fusescope
