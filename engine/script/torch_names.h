#pragma once
// What real PyTorch and CPython call things, to word a missing attribute: a name PyTorch (or
// the standard module) has too is one Fusescope does not implement yet; any other is a typo,
// answered with the closest name there is ("Did you mean: 'cos'?", as Python words it). The
// names are those of torch 2.15 and CPython 3.11's modules that scripts import
// (torch_names_data.cpp, written by scripts/make-torch-names).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fusescope {

struct TorchScopeNames {
    std::string_view scope;  // "torch", "torch.Tensor", "torch.nn", "torch.nn.functional", "collections", ...
    std::vector<std::string_view> names;  // sorted
    std::vector<std::string_view> pythonFunctions;  // those of names written in Python (sorted)
    std::vector<std::string_view> inGraphFunctions;  // those of pythonFunctions Dynamo puts in its graph whole (sorted)
    std::vector<std::pair<std::string_view, std::string_view>> classes;  // (name, its __module__), by name
};

extern const char* const kTorchNamesVersion;
const std::vector<TorchScopeNames>& torchScopeNames();

// Whether real PyTorch (or CPython's module) has `scope`.`name` (false for a scope not listed).
bool torchHasName(std::string_view scope, std::string_view name);

// Whether `scope`.`name` is a function written in Python in real PyTorch (F.relu; torch.cat is
// a builtin): Dynamo guards such a callee by its __code__, a builtin by its id.
bool torchNameIsPythonFunction(std::string_view scope, std::string_view name);

// Whether `scope`.`name` is a Python function Dynamo's trace rules put in the graph whole
// (F.dropout2d, torch.split): Dynamo runs it on fake tensors rather than tracing its code.
bool torchNameIsInGraphFunction(std::string_view scope, std::string_view name);

// The module real PyTorch defines class `scope`.`name` in ("torch.nn.modules.linear" for
// torch.nn Linear), or nullopt when that is no class there.
std::optional<std::string_view> torchClassModule(std::string_view scope, std::string_view name);

// The candidate closest to `name` by edit distance (a swap of two neighbours counts one
// edit), when it is close enough to be a typo of it: at most a third of its length.
std::optional<std::string> closestName(std::string_view name, const std::vector<std::string_view>& candidates);

// What follows "… has no attribute 'name'" for an attribute missing from `scope`, given
// what Fusescope has there (`ours`): " (PyTorch has torch.xyz; Fusescope does not implement
// it yet)" (or "Python has collections.xyz"), or for a typo ". Did you mean: 'cos'?" (the closest of ours and PyTorch's), or "".
std::string missingAttributeNote(std::string_view scope, std::string_view name, const std::vector<std::string_view>& ours);

}  // namespace fusescope
