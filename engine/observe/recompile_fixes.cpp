#include "observe/recompile_fixes.h"

#include <regex>

// Marks each advice for the GUI's translation table (lupdate reads this file); the engine stays Qt-free.
#define QT_TRANSLATE_NOOP(context, text) text

namespace fusescope {
namespace {

struct Fix {
    std::regex reason;   // searched in the reason; its groups fill $1, $2, ...
    const char* advice;  // std::regex_replace's format
};

const std::vector<Fix>& fixes() {
    static const std::vector<Fix> table = {
        {std::regex(R"(tensor '(.+)' size mismatch at index (\d+)\. expected (\S+), actual (\d+)\. Guard failed on a parameter)"),
         QT_TRANSLATE_NOOP("RecompileFixes",
                           "$1 is a parameter (or buffer), whose sizes stay static: a module whose $1 has another size ($3 to $4 at "
                           "dim $2) compiles again; to share one dynamic graph, set "
                           "`torch._dynamo.config.force_parameter_static_shapes = False` before the first call")},
        {std::regex(R"(tensor '(.+)' size mismatch at index (\d+)\. expected (\S+), actual (\S+))"),
         QT_TRANSLATE_NOOP("RecompileFixes",
                           "the size of $1's dim $2 changed ($3 to $4): mark it dynamic before the first call, "
                           "`torch._dynamo.mark_dynamic($1, $2)`, or compile with `dynamic=True`; without either, this recompile "
                           "makes the dim dynamic and later sizes reuse it")},
        {std::regex(R"(tensor '(.+)' dtype mismatch\. expected (\S+), actual (\S+))"),
         QT_TRANSLATE_NOOP("RecompileFixes",
                           "$1's dtype changed ($2 to $3): each dtype compiles once; convert $1 to one dtype before the call")},
        {std::regex(R"(tensor '(.+)' rank mismatch\. expected (\S+), actual (\S+))"),
         QT_TRANSLATE_NOOP("RecompileFixes",
                           "$1's number of dims changed ($2 to $3): each rank compiles once; reshape $1 to one rank before the call")},
        {std::regex(R"(tensor '(.+)' stride mismatch at index (\d+))"),
         QT_TRANSLATE_NOOP("RecompileFixes",
                           "$1's layout changed (a transposed or sliced view): pass `$1.contiguous()`")},
        {std::regex(R"(tensor '(.+)' requires_grad mismatch)"),
         QT_TRANSLATE_NOOP("RecompileFixes",
                           "$1.requires_grad changed: each setting compiles once; call it with the same requires_grad")},
        {std::regex(R"(expected type of '(.+)' to be (.+), but found (.+))"),
         QT_TRANSLATE_NOOP("RecompileFixes",
                           "$1 was passed as another type ($3 where the compile had $2): pass the same type on every call")},
        {std::regex(R"(___check_type_id\(([^,]+), \d+\), type=(<class '[^']+'>))"),
         QT_TRANSLATE_NOOP("RecompileFixes",
                           "$1 was passed as another type than the compile's $2: pass the same type on every call")},
        {std::regex(R"(len\((\S+)\) == (\d+))"),
         QT_TRANSLATE_NOOP("RecompileFixes",
                           "the length of $1 changed: keep it fixed, or pass its items as one tensor (`torch.stack`)")},
        // An argument's value (not an attribute: self.training changes for a reason of its own):
        // a float, or an int of 2 or more, is dynamic from this recompile on (automatic dynamic).
        {std::regex(R"(^(?:\d+/\d+: )?([A-Za-z_]\w*) == ([2-9]|[1-9]\d+|-?\d+\.\d*(?:e[-+]?\d+)?|-?\d+e[-+]?\d+)\s+#)"),
         QT_TRANSLATE_NOOP("RecompileFixes",
                           "$1 is a Python number the graph held as the constant $2: this recompile makes it dynamic (a graph input "
                           "guarded by its type), so later values reuse the recompiled graph; to skip this recompile too, compile with "
                           "`dynamic=True`")},
        {std::regex(R"(^(?:\d+/\d+: )?([A-Za-z_]\w*) == (\S+?)\s+#)"),
         QT_TRANSLATE_NOOP("RecompileFixes",
                           "$1 is a Python value the graph holds as the constant $2: another value recompiles; if it changes from "
                           "call to call, pass it as a tensor (`torch.tensor(...)`)")},
        {std::regex(R"(GLOBAL_STATE changed: grad_mode)"),
         QT_TRANSLATE_NOOP("RecompileFixes",
                           "it was called under another grad mode than the compile's: call it under the same `torch.no_grad()` "
                           "setting, or expect one compile for each")},
        {std::regex(R"(BACKEND_MATCH failure)"),
         QT_TRANSLATE_NOOP("RecompileFixes",
                           "the function is compiled by two backends: compile it once and reuse the compiled function")},
    };
    return table;
}

}  // namespace

std::string recompileFix(const std::string& reason, const std::function<std::string(const char*)>& inLanguage) {
    for (const Fix& fix : fixes()) {
        std::smatch match;
        if (std::regex_search(reason, match, fix.reason)) return match.format(inLanguage ? inLanguage(fix.advice) : fix.advice);
    }
    return "";
}

}  // namespace fusescope
