#pragma once
// The fs_* helper functions generated modules call (codegen/common/fs_helpers.cpp).

#include <string>

namespace fusescope {

const std::string& fsHelpers();

}  // namespace fusescope
