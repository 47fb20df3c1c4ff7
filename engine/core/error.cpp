#include "core/error.h"

namespace fusescope {

std::string SourceLocation::str() const {
    if (!known()) return file;
    std::string s = file + ":" + std::to_string(line);
    if (column > 0) s += ":" + std::to_string(column);
    return s;
}

std::string Error::describe() const {
    std::string prefix = where_.known() ? where_.str() + ": " : std::string();
    return prefix + "error: " + what();
}

}  // namespace fusescope
