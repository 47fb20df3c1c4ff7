#pragma once
// Faults tests switch on through the environment, so the paths that handle a broken
// compiler stage can be exercised end to end:
//   FUSESCOPE_TEST_BREAK_CODEGEN=1        generated C++ gets a line that is not C++
//   FUSESCOPE_TEST_PLANT_BUG=STAGE        one stage computes a wrong result:
//     aot_decomposition       linear's decomposition doubles its result (every backend that decomposes)
//     inductor_decomposition  softmax's decomposition divides by the sum plus 1
//     lowering                exp is lowered as exp2 (inductor only)

#include <string_view>

namespace fusescope {

bool codegenBrokenForTests();
bool bugPlantedForTests(std::string_view stage);

}  // namespace fusescope
