#pragma once
// What a TORCH_TRACE log says about a compile's inputs and symbolic shapes (describe_tensor,
// describe_storage, describe_source, create_symbol, create_unbacked_symbol, guard_added,
// guard_added_fast, symbolic_shape_specialization), each entry as one log line for the
// workbench's Logs pane: "tensor 0: torch.float32, size [3], stride [1], ...".

#include <string>

#include <nlohmann/json.hpp>

#include "observe/event.h"

namespace fusescope {

bool isShapeEntry(const std::string& kind);

// A described tensor's dtype, size and stride: "torch.float32, size [4, 8], stride [8, 1]".
std::string tensorLayoutText(const nlohmann::json& describeTensor);

// `where`: the innermost frame of the entry's user stack, null when it has none.
std::string shapeEntryText(const std::string& kind, const nlohmann::json& metadata, const StackFrame* where);

}  // namespace fusescope
