#include "capture/symbol_names.h"

#include <optional>

#include <fmt/format.h>

#include "core/digest.h"

namespace fusescope {

std::string SymbolNames::next(const std::string& sourceName, const char* prefix) {
    int id = static_cast<int>(used_.size());  // in order, without a digest
    if (std::optional<std::string> hex = hexDigest(DigestKind::Sha256, sourceName)) {
        id = 0;
        for (char c : *hex) id = (id * 16 + (c <= '9' ? c - '0' : c - 'a' + 10)) % 100;
    }
    while (used_.count(id)) ++id;
    used_.insert(id);
    return fmt::format("{}{}", prefix, id);
}

}  // namespace fusescope
