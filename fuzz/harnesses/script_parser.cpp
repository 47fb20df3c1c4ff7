// The script lexer and parser on arbitrary bytes: every input either parses (and its tree
// prints) or is refused with a ScriptError at a line and column. Anything else that
// escapes (another exception, a crash, a sanitizer report, unbounded time) is a defect.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/error.h"
#include "script/ast.h"
#include "script/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view source(reinterpret_cast<const char*>(data), size);
    try {
        auto module = fusescope::parseScript(source, "fuzz.py");
        (void)fusescope::dumpAst(*module);
    } catch (const fusescope::ScriptError&) {
    }
    return 0;
}
