#include "core/error.h"

namespace fusescope {

std::string SourceLocation::str() const {
    if (!known()) return file;
    std::string s = file + ":" + std::to_string(line);
    if (column > 0) s += ":" + std::to_string(column);
    return s;
}

}  // namespace fusescope
