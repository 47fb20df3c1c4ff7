#pragma once
// Engine messages in the interface's language where their words are fixed: the guard
// failures and graph-break reasons the engine words the same way every time ("tensor 'L['a']'
// size mismatch at index 0. expected 3, actual 2"). Each known shape is a translatable
// template with the message's own values put back in; in English the template gives back
// the message unchanged, and a message of no known shape is shown as it came.

#include <QString>

namespace fusescope::gui {

// Each line of `text` in the interface's language where its shape is known.
QString inInterfaceLanguage(const QString& text);

}  // namespace fusescope::gui
