#include "core/test_hooks.h"

#include <cstdlib>

namespace fusescope {

namespace {

std::string_view env(const char* name) {
    const char* v = std::getenv(name);
    return v ? v : "";
}

}  // namespace

bool codegenBrokenForTests() { return env("FUSESCOPE_TEST_BREAK_CODEGEN") == "1"; }
bool bugPlantedForTests(std::string_view stage) { return env("FUSESCOPE_TEST_PLANT_BUG") == stage; }

}  // namespace fusescope
