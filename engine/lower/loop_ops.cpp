#include "lower/loop_ops.h"

namespace fusescope {

std::string_view loopOpName(LoopOpKind kind) { return kLoopOpNames[static_cast<std::size_t>(kind)]; }

bool isLoadOp(LoopOpKind kind) { return kind == LoopOpKind::Load || kind == LoopOpKind::MaskedLoad; }

bool isStoreOp(LoopOpKind kind) { return kind == LoopOpKind::Store || kind == LoopOpKind::StoreReduction; }

std::string_view reductionName(ReductionKind kind) {
    switch (kind) {
    case ReductionKind::Sum: return "sum";
    case ReductionKind::Prod: return "prod";
    case ReductionKind::Max: return "max";
    case ReductionKind::Min: return "min";
    case ReductionKind::ArgMax: return "argmax";
    case ReductionKind::ArgMin: return "argmin";
    case ReductionKind::Any: return "any";
    case ReductionKind::All: return "all";
    }
    return "";
}

bool isArgReduction(ReductionKind kind) { return kind == ReductionKind::ArgMax || kind == ReductionKind::ArgMin; }

std::string_view externKernelName(ExternKernelKind kind) {
    switch (kind) {
    case ExternKernelKind::Mm: return "mm";
    case ExternKernelKind::Bmm: return "bmm";
    }
    return "";
}

}  // namespace fusescope
