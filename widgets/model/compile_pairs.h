#pragma once
// Our compile beside PyTorch's (docs/torch-trace.md, "Our compile beside PyTorch's"): every
// compile id of either run, paired by id, with what each side made of it: graphs, ops,
// guards, graph breaks, recompile reasons, kernels and the texts to read side by side.

#include <vector>

#include <QString>
#include <QStringList>

#include "model/run_store.h"

namespace fusescope::gui {

struct CompileSide {
    bool present = false;  // this side has the compile at all
    QString function;
    int graphs = 0, ops = 0, kernels = 0;
    QStringList guards;            // each guard's check, without its "# source" comment
    QStringList graphBreaks;       // "reason (file:line)", the file without its folder
    QStringList recompileReasons;  // the guard failures that made this compile
    QString graphCode;             // each graph's readable code
    QString code;                  // the generated code (ours: C++ or CUDA; PyTorch's: output code)
};

struct CompilePair {
    QString compileId;
    CompileSide ours, torch;
    // Where the two differ in the counts the table shows (a side that lacks the compile differs).
    bool countsDiffer() const;
};

CompileSide compileSide(const RunStore& store, const QString& compileId);

// Both runs' compiles in compile-id order (frame, then compile within the frame, then attempt).
std::vector<CompilePair> pairCompiles(const RunStore& ours, const RunStore& torch);

}  // namespace fusescope::gui
