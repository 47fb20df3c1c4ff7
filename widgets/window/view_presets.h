#pragma once
// The views `--view` and the screenshots bring to the front, each with what makes it worth a
// look selected: overview, fusion (stepped half way), code (the first kernel selected),
// guards (of the first compile whose guards failed), graph-breaks (the first), compare (the
// guards of the last two compiles), forward and backward (a training step's graphs),
// torch-compare (recompile reasons) and trace (the first kernel of a compiled graph).
// The window handles minify, which starts the minifier.

#include <QString>

namespace fusescope::gui {

struct Docks;
class SelectionContext;

// False for a view not named above.
bool showPresetView(const QString& view, const Docks& docks, SelectionContext& selection);

}  // namespace fusescope::gui
