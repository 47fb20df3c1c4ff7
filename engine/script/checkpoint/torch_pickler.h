#pragma once
// What torch.save pickles (torch/serialization.py's _save): protocol 2, as Python's pickler
// writes it, with every tensor's storage named by a persistent id ('storage',
// torch.FloatStorage, key, location, numel) and its bytes kept for the archive's data/<key>
// record. PyTorch's weights-only unpickler loads all of it.

#include <memory>
#include <string>
#include <vector>

#include "script/value.h"

namespace fusescope {

class Interpreter;

struct PickledObject {
    std::string pickle;  // data.pkl
    struct StorageRecord {
        std::string key;  // "0", "1", ... in the order first met
        std::shared_ptr<Storage> storage;
    };
    std::vector<StorageRecord> storages;
};

// Tensors (Parameters too), None, bools, ints, floats, strings, bytes, dtypes, devices,
// torch.Size and lists, tuples, dicts, OrderedDicts and sets of them; anything else is a
// NotImplementedError naming it.
PickledObject pickleForTorchSave(Interpreter& in, const Value& object);

}  // namespace fusescope
