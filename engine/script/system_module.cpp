// _system: what the script library's os and sys read of the machine (the working directory,
// files, the environment, the script's arguments) and stderr, which they write; where a
// caller is (warnings), a regular-expression match (warnings' filters), a str's characters
// (json) and a literal's value (ast.literal_eval); the private directories tempfile makes
// (to save checkpoints into) and removes.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <set>

#include "script/interpreter.h"
#include "script/literal_eval.h"
#include "script/utf8.h"

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
    // (file, line, module) of the frame `level` calls out from the one calling caller():
    // warnings.warn's stacklevel.
    addFunction(*module, "caller", [scriptFile](Interpreter& in, CallArgs& a) {
        const int64_t level = a.args.size() == 1 && a.args[0].isInt() ? a.args[0].asInt() : 1;
        const auto& stack = in.stack();
        const int64_t index = static_cast<int64_t>(stack.size()) - 1 - level;
        if (index < 0) return makeTuple({Value("sys"), Value(int64_t{1}), Value("sys")});
        const std::string& file = stack[static_cast<size_t>(index)].where.file;
        const std::string name = file == scriptFile ? "__main__" : fs::path(file).stem().string();
        return makeTuple({Value(file), Value(static_cast<int64_t>(stack[static_cast<size_t>(index)].where.line)), Value(name)});
    });
    addFunction(*module, "source_line", [](Interpreter& in, CallArgs& a) {
        if (a.args.size() != 2 || !a.args[0].isString() || !a.args[1].isInt()) in.fail("TypeError", "source_line(file, line)");
        std::ifstream file(a.args[0].asString());
        std::string text;
        for (int64_t n = 0; n < a.args[1].asInt() && std::getline(file, text);) ++n;
        return file ? Value(text) : Value("");
    });
    // Whether the pattern matches at the start of the text (re.match), case-insensitively if asked.
    addFunction(*module, "regex_match", [](Interpreter& in, CallArgs& a) {
        if (a.args.size() != 3 || !a.args[0].isString() || !a.args[1].isString())
            in.fail("TypeError", "regex_match(pattern, text, ignore_case)");
        try {
            auto flags = std::regex::ECMAScript | (in.truthy(a.args[2]) ? std::regex::icase : std::regex::ECMAScript);
            return Value(std::regex_search(a.args[1].asString(), std::regex(a.args[0].asString(), flags),
                                           std::regex_constants::match_continuous));
        } catch (const std::regex_error& e) {
            in.fail("ValueError", std::string("bad regular expression: ") + e.what());
        }
    });
    addFunction(*module, "literal_eval", [](Interpreter& in, CallArgs& a) {
        if (a.args.size() != 1 || !a.args[0].isString()) in.fail("TypeError", "literal_eval() takes one str");
        return literalEval(in, a.args[0].asString());
    });
    // The characters of a str, each a str of one code point (json's escapes).
    addFunction(*module, "characters", [](Interpreter& in, CallArgs& a) {
        if (a.args.size() != 1 || !a.args[0].isString()) in.fail("TypeError", "characters() takes one str");
        ValueList out;
        for (uint32_t cp : codePoints(a.args[0].asString())) {
            std::string c;
            appendUtf8(c, cp);
            out.emplace_back(std::move(c));
        }
        return makeList(std::move(out));
    });
    addFunction(*module, "tempdir", [](Interpreter&, CallArgs&) {
        std::error_code ec;
        const fs::path dir = fs::temp_directory_path(ec);
        return Value(ec ? std::string("/tmp") : dir.string());
    });
    // A new directory prefix + 8 random characters + suffix in `dir`, as tempfile.mkdtemp;
    // remembered, so that rmtree removes only what this run made.
    auto made = std::make_shared<std::set<std::string>>();
    addFunction(*module, "mkdtemp", [made](Interpreter& in, CallArgs& a) {
        if (a.args.size() != 3 || !a.args[0].isString() || !a.args[1].isString() || !a.args[2].isString())
            in.fail("TypeError", "mkdtemp(suffix, prefix, dir)");
        static const char letters[] = "abcdefghijklmnopqrstuvwxyz0123456789_";
        std::mt19937_64 random(std::random_device{}());
        for (int attempt = 0; attempt < 100; ++attempt) {
            std::string name = a.args[1].asString();
            for (int i = 0; i < 8; ++i) name += letters[random() % (sizeof letters - 1)];
            const fs::path dir = fs::path(a.args[2].asString()) / (name + a.args[0].asString());
            std::error_code ec;
            if (fs::create_directory(dir, ec)) {
                fs::permissions(dir, fs::perms::owner_all, ec);
                made->insert(dir.string());
                return Value(dir.string());
            }
            if (ec) in.fail("FileNotFoundError", "[Errno 2] No such file or directory: '" + dir.string() + "'");
        }
        in.fail("FileExistsError", "No usable temporary directory name found");
    });
    addFunction(*module, "rmtree", [made](Interpreter& in, CallArgs& a) {
        const std::string& path = pathArgument(in, a, "rmtree");
        if (!made->count(path)) in.fail("PermissionError", "Fusescope removes only the temporary directories tempfile made: " + path);
        std::error_code ec;
        fs::remove_all(path, ec);
        made->erase(path);
        return Value();
    });
    return Value(ObjectPtr(module));
}

}  // namespace fusescope
