#pragma once
// JSON as text, whatever its strings hold: a script's or a log's bytes need not be valid
// UTF-8 (a Latin-1 comment, a payload cut mid-character), and nlohmann's dump() throws on
// them; here each invalid byte becomes U+FFFD, as Python's errors="replace".

#include <string>

#include <nlohmann/json.hpp>

namespace fusescope {

inline std::string jsonText(const nlohmann::json& value, int indent = -1) {
    return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace fusescope
