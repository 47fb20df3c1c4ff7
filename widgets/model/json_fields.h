#pragma once
// Reading fields of engine events without trusting them: events may come from a bundle made
// elsewhere, and a field of the wrong type must not throw through Qt's event loop. The
// engine's readers use the same helpers (core/read_fields.h: stringField, integerField, ...).

#include <string>

#include <QString>
#include <nlohmann/json.hpp>

#include "core/read_fields.h"

namespace fusescope::gui {

inline QString qstringField(const nlohmann::json& event, const char* key) {
    return QString::fromStdString(stringField(event, key));
}

}  // namespace fusescope::gui
