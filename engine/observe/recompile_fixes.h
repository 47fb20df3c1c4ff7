#pragma once
// The doctor's advice for a recompile: given the guard failure that triggered it (a
// recompile reason as PyTorch 2.15 words it, "0/0: tensor 'x' size mismatch at index 0.
// expected 3, actual 4"), the change to the program that avoids it ("mark it dynamic before
// the first call, `torch._dynamo.mark_dynamic(x, 0)`, ..."). Empty for a reason of no known
// shape. docs/recompiles.md lists them.

#include <functional>
#include <string>

namespace fusescope {

// `inLanguage` words the advice's template (its $1, $2 kept) in the reader's language: the
// GUI's translation of the template, whose context is "RecompileFixes".
std::string recompileFix(const std::string& reason, const std::function<std::string(const char*)>& inLanguage = {});

}  // namespace fusescope
