// _system: what the script library's os and sys read of the machine (the working directory,
// files, the environment, the script's arguments) and stderr, which they write.
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "script/interpreter.h"

extern char** environ;

namespace fusescope {

namespace {

namespace fs = std::filesystem;

const std::string& pathArgument(Interpreter& in, const CallArgs& a, const char* name) {
    if (a.args.size() != 1 || !a.args[0].isString()) in.fail("TypeError", std::string(name) + "() takes one path, a str");
    return a.args[0].asString();
}

void addFunction(ModuleObject& module, const std::string& name, std::function<Value(Interpreter&, CallArgs&)> call) {
    module.attrs[name] = makeBuiltin("_system." + name, std::move(call));
}

}  // namespace

Value makeSystemModule(const std::string& scriptFile) {
    auto module = std::make_shared<ModuleObject>();
    module->name = "_system";
    module->attrs["argv"] = makeList({Value(scriptFile)});
    addFunction(*module, "getcwd", [](Interpreter&, CallArgs&) {
        std::error_code ec;
        return Value(fs::current_path(ec).string());
    });
    // "file", "dir" or None: what is at the path (os.path.exists/isfile/isdir).
    addFunction(*module, "kind", [](Interpreter& in, CallArgs& a) {
        std::error_code ec;
        const fs::file_status status = fs::status(pathArgument(in, a, "kind"), ec);
        if (fs::is_directory(status)) return Value("dir");
        return fs::exists(status) ? Value("file") : Value();
    });
    addFunction(*module, "listdir", [](Interpreter& in, CallArgs& a) {
        const std::string& path = pathArgument(in, a, "listdir");
        std::error_code ec;
        ValueList names;
        for (const auto& entry : fs::directory_iterator(path, ec)) names.emplace_back(entry.path().filename().string());
        if (ec) in.fail("FileNotFoundError", "[Errno 2] No such file or directory: '" + path + "'");
        return makeList(std::move(names));
    });
    addFunction(*module, "environ", [](Interpreter&, CallArgs&) {
        auto variables = std::make_shared<DictObject>();
        for (char** entry = environ; entry && *entry; ++entry) {
            std::string text = *entry;
            const size_t equals = text.find('=');
            if (equals != std::string::npos) variables->set(Value(text.substr(0, equals)), Value(text.substr(equals + 1)));
        }
        return Value(ObjectPtr(variables));
    });
    addFunction(*module, "write_stderr", [](Interpreter& in, CallArgs& a) {
        if (a.args.size() != 1 || !a.args[0].isString()) in.fail("TypeError", "write() argument must be str");
        std::fputs(a.args[0].asString().c_str(), stderr);
        return Value(static_cast<int64_t>(a.args[0].asString().size()));
    });
    return Value(ObjectPtr(module));
}

}  // namespace fusescope
