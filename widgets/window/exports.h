#pragma once
// Writing what is on show to files, each atomically (a target is never left half written, and
// exporting onto the file it came from is safe): the run's bundle, with PyTorch's side when
// one is on show (its torch/ entries), and the run's spans as Chrome trace JSON for Perfetto.
// Each returns "" or why it could not.

#include <QString>

namespace fusescope::gui {

class TraceLog;

QString copyBundle(const QString& bundle, const QString& path);
// `torchLog`: the TORCH_TRACE folder or log on PyTorch's side (bundle/bundle_torch_side.h).
QString writeBundleWithTorchSide(const QString& bundle, const QString& torchLog, const QString& path);
QString writeChromeTrace(const TraceLog& traces, const QString& path);

}  // namespace fusescope::gui
