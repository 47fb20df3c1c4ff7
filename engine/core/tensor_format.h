#pragma once
// Printing as PyTorch and Python do, so a script's output diffs cleanly against real torch.

#include <string>

#include "core/tensor.h"

namespace fusescope {

// PyTorch's default repr/print of a tensor (torch/_tensor_str.py with default print options).
std::string tensorRepr(const Tensor& t);
// Python's repr of a float: shortest round-trip digits ("0.1", "1.0", "1e-05", "inf").
std::string formatPythonFloat(double value);

}  // namespace fusescope
