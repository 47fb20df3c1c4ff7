#pragma once
// Reading fields of engine events without trusting them: events may come from a bundle made
// elsewhere, and a field of the wrong type must not throw through Qt's event loop.

#include <string>

#include <QString>
#include <nlohmann/json.hpp>

namespace fusescope::gui {

// The string at `key`, or "" when it is missing or not a string.
inline std::string stringField(const nlohmann::json& event, const char* key) {
    auto it = event.find(key);
    return it != event.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The number at `key`, or `fallback` when it is missing or not a number.
template <class T>
T numberField(const nlohmann::json& event, const char* key, T fallback) {
    auto it = event.find(key);
    return it != event.end() && it->is_number() ? it->get<T>() : fallback;
}

inline QString qstringField(const nlohmann::json& event, const char* key) {
    return QString::fromStdString(stringField(event, key));
}

}  // namespace fusescope::gui
