#pragma once
// Fused node and kernel names grow with what they merge (buf0_buf1_..._buf100): in a label
// such a name would widen the whole window. Labels show each over-long name shortened in
// the middle, whole parts kept ("buf0_buf1_buf2_…_buf99_buf100"), the full text in a tooltip.

#include <QString>

class QLabel;

namespace fusescope::gui {

// `text` with every name (a run of letters, digits and '_') longer than `maxChars` elided.
QString elideLongNames(const QString& text, int maxChars = 40);

// Shows `text` in `label` with its long names elided; the tooltip holds it whole when that
// changed anything.
void setTextElidingNames(QLabel* label, const QString& text);

}  // namespace fusescope::gui
