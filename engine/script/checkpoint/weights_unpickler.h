#pragma once
// torch.load's unpickler, as PyTorch's weights-only one (torch/_weights_only_unpickler.py):
// the pickle opcodes torch.save writes (protocol 2) and only the globals that unpickler
// allows, each rebuilt here natively: tensors over the checkpoint's storages, OrderedDicts,
// torch.Size, devices, dtypes, bytes, sets. Any other global, or an opcode outside that set,
// is refused with UnpicklingError before anything is made of it: loading a checkpoint never
// runs code from it. Malformed data (truncated, a stack it does not build) is refused too.

#include <functional>
#include <string>
#include <string_view>

#include "core/dtype.h"
#include "script/value.h"

namespace fusescope {

class Interpreter;

// The storage a persistent id ('storage', torch.FloatStorage, key, location, numel) names:
// the checkpoint's record of that key as a flat tensor of `numel` elements of `dtype`.
// Called once a key; tensors that name the same key are views of the one storage.
using StorageLoader = std::function<Tensor(const std::string& key, DType dtype, const std::string& location, int64_t numel)>;

// The object `pickle` holds. Errors are the script's UnpicklingError (WeightsUnpickler's
// words where it has them), raised through `in`.
Value unpickleWeights(Interpreter& in, std::string_view pickle, const StorageLoader& loadStorage);

// The error kind every refusal is raised as (pickle.UnpicklingError, as PyTorch raises).
inline constexpr const char* kUnpicklingError = "_pickle.UnpicklingError";

}  // namespace fusescope
