#pragma once
// Where a line of real PyTorch's torch.nn code is. Dynamo traces into torch.nn's Python code,
// so PyTorch's guards and stacks name its lines ("linear.py:134 in forward"); Fusescope's
// script library has its own torch.nn, and a frame of it whose function and line read as
// PyTorch's is shown at PyTorch's place. The table (torch_lines_data.cpp) is written by
// scripts/make-torch-lines from torch 2.15.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fusescope {

struct TorchLine {
    uint64_t key;   // FNV-1a of "qualname\ncode", the code being the line without its comment
    uint16_t file;  // into torchLineFiles()
    uint32_t line;
    const char* shown;  // the line with its comment, where it has one ("" where it is the code)
};

extern const char* const kTorchLinesVersion;
const std::vector<std::string_view>& torchLineFiles();  // "torch/nn/modules/linear.py"
// Those of them whose functions Dynamo compiles as frames of their own when eager code calls
// them (torch/optim's); the rest it only inlines (torch/nn is on its MOD_SKIPLIST).
const std::vector<std::string_view>& torchFrameFiles();
const std::vector<TorchLine>& torchLines();             // sorted by key, then line

struct TorchPlace {
    std::string_view file;
    int line;
    std::string text;  // as PyTorch's file has it (its comment included)
};

// Where PyTorch has a line of the same code as `text` (stripped; comments aside) in its
// function `qualname` ("Linear.forward"), or nullopt when PyTorch's torch.nn has none there.
// The code is the `occurrence`-th (from 0) of `occurrences` equal lines of Fusescope's function:
// where PyTorch's has as many, the same one; else its last (an earlier one is more often a
// special case returning early, as Conv2d._conv_forward's padding_mode branch).
// An empty `text` asks where the function starts (its code's first line: its first decorator's).
std::optional<TorchPlace> torchPlaceOf(std::string_view qualname, std::string_view text, int occurrence = 0,
                                       int occurrences = 1);

// The code of a line: without its trailing comment (a '#' outside quotes) and trailing blanks.
std::string_view codeOf(std::string_view line);

}  // namespace fusescope
