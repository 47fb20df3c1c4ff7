#pragma once
// The script library: standard modules scripts import (dataclasses, typing, functools, ...)
// written in Python in engine/script/library/ and compiled into the engine as text. The
// interpreter runs one the first time a script imports it.

#include <string_view>
#include <vector>

namespace fusescope {

struct LibraryModuleSource {
    std::string_view module;  // "dataclasses", "torch.nn"
    std::string_view file;    // "dataclasses.py", "torch/nn.py" (as messages name it)
    std::string_view text;
};

const std::vector<LibraryModuleSource>& scriptLibrarySources();

}  // namespace fusescope
