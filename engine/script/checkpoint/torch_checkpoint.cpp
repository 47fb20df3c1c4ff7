// torch.save and torch.load in PyTorch's checkpoint format: a zip archive (stored, not
// deflated) whose records sit under one folder named after the file: data.pkl (the object,
// torch_pickler.h / weights_unpickler.h), data/<key> (each storage's bytes, little-endian),
// .format_version, byteorder and version. What PyTorch 2.15 saves loads here, and what is
// saved here loads in PyTorch with weights_only=True.
#include <cstring>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "bundle/zip_archive.h"
#include "core/device_context.h"
#include "script/checkpoint/torch_pickler.h"
#include "script/checkpoint/weights_unpickler.h"
#include "script/interpreter.h"
#include "script/trace_hooks.h"
#include "script/types/bytes_type.h"
#include "script/types/method_table.h"

namespace fusescope {

namespace {

namespace fs = std::filesystem;

// A deflated record may expand this much at most (as bundles allow): PyTorch stores
// records, so a checkpoint claiming more is a zip bomb.
constexpr double kMaxInflation = 1100;
constexpr uint64_t kInflationFreeBytes = uint64_t{1} << 20;

std::string pathArgument(Interpreter& in, const Value& f, const char* function) {
    if (!f.isString())
        in.fail("TypeError", fmt::format("{}: Fusescope takes the checkpoint's path as a str, not a '{}' (file objects are not supported)",
                                         function, pythonTypeName(f)));
    return f.asString();
}

// Where storages saved at `location` go: map_location's device (a str or torch.device), or
// where they were saved, which must exist here (PyTorch's error when it does not).
Device storageDevice(Interpreter& in, const std::string& location, const Value& mapLocation) {
    std::optional<Device> device;
    if (mapLocation.isNone()) device = Device::parse(location);
    else if (mapLocation.isDevice()) device = mapLocation.asDevice();
    else if (mapLocation.isString()) device = Device::parse(mapLocation.asString());
    else in.fail("NotImplementedError", "torch.load: map_location must be None, a str or a torch.device in Fusescope (not a dict or a function)");
    if (!device || device->isMeta()) in.fail("RuntimeError", "torch.load: a storage location Fusescope does not know: " + location);
    if (!device->isCpu() && !cudaTensorsAvailable())
        in.fail("RuntimeError", "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are "
                                "running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map "
                                "your storages to the CPU.");
    return *device;
}

// The archive of a checkpoint file, or the script's error saying what the file is instead.
std::unique_ptr<ZipReader> openCheckpoint(Interpreter& in, const std::string& path) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) in.fail("IsADirectoryError", fmt::format("[Errno 21] Is a directory: '{}'", path));
    std::ifstream file(path, std::ios::binary);
    if (!file) in.fail("FileNotFoundError", fmt::format("[Errno 2] No such file or directory: '{}'", path));
    char head[4] = {};
    file.read(head, 4);
    if (std::memcmp(head, "PK\x03\x04", 4) != 0 && std::memcmp(head, "PK\x05\x06", 4) != 0) {
        if (static_cast<unsigned char>(head[0]) == 0x80)
            in.fail(kUnpicklingError, fmt::format("'{}' is a checkpoint in PyTorch's legacy format (torch.save before 1.6, or "
                                                  "_use_new_zipfile_serialization=False); Fusescope reads the zip format only: "
                                                  "load it in PyTorch and save it again",
                                                  path));
        in.fail(kUnpicklingError, fmt::format("'{}' is not a checkpoint torch.save wrote (not a zip archive)", path));
    }
    try {
        return std::make_unique<ZipReader>(path);
    } catch (const Error& e) {
        in.fail("RuntimeError", fmt::format("PytorchStreamReader failed reading zip archive: {}: '{}' is damaged (truncated, "
                                            "or changed after it was saved)",
                                            e.what(), path));
    }
}

Value torchLoad(Interpreter& in, CallArgs& a) {
    expectKeywords(in, a, "load", {"f", "map_location", "pickle_module", "weights_only", "mmap", "encoding"});
    const std::string path = pathArgument(in, argumentOr(a, 0, "f"), "torch.load");
    const Value mapLocation = argumentOr(a, 1, "map_location");
    if (in.tracer()) in.tracer()->onUntracedEffect("it reads a file");
    const std::unique_ptr<ZipReader> zip = openCheckpoint(in, path);
    const auto& entries = zip->entries();
    auto findRecord = [&](const std::string& name) -> std::optional<size_t> {
        for (size_t i = 0; i < entries.size(); ++i)
            if (entries[i].name == name) return i;
        return std::nullopt;
    };
    auto readRecord = [&](size_t index) {
        const ZipEntryInfo& e = entries[index];
        if (e.size > kInflationFreeBytes && static_cast<double>(e.size) > kMaxInflation * static_cast<double>(e.compressedSize))
            in.fail(kUnpicklingError, fmt::format("'{}': record '{}' would inflate from {} to {} bytes: refused as a zip bomb", path,
                                                  e.name, e.compressedSize, e.size));
        try {
            return zip->read(index);
        } catch (const Error& error) {
            in.fail(kUnpicklingError, fmt::format("'{}': {}", path, error.what()));
        }
    };
    // The records' folder: PyTorch names it after the file it saved to, so it is found by data.pkl.
    std::string prefix;
    std::optional<size_t> pickle;
    for (size_t i = 0; i < entries.size() && !pickle; ++i)
        if (entries[i].name == "data.pkl" || entries[i].name.ends_with("/data.pkl"))
            pickle = i, prefix = entries[i].name.substr(0, entries[i].name.size() - 8);
    if (!pickle) in.fail(kUnpicklingError, fmt::format("'{}' is a zip archive but not a PyTorch checkpoint: it has no data.pkl", path));
    if (auto order = findRecord(prefix + "byteorder"); order && readRecord(*order) != "little")
        in.fail(kUnpicklingError, fmt::format("'{}' was saved on a big-endian machine; Fusescope reads little-endian checkpoints only", path));

    StorageLoader loadStorage = [&](const std::string& key, DType dtype, const std::string& location, int64_t numel) {
        const std::string name = "data/" + key;
        auto record = findRecord(prefix + name);
        if (!record) in.fail("RuntimeError", fmt::format("PytorchStreamReader failed locating file {}: file not found", name));
        int64_t nbytes = 0;
        if (__builtin_mul_overflow(numel, static_cast<int64_t>(dtypeSize(dtype)), &nbytes) || static_cast<uint64_t>(nbytes) > entries[*record].size)
            in.fail(kUnpicklingError, fmt::format("'{}': storage {} holds {} bytes, fewer than the {} elements of {} its pickle declares", path,
                                                  name, entries[*record].size, numel, dtypeName(dtype)));
        const std::string bytes = readRecord(*record);
        if (bytes.size() < static_cast<size_t>(nbytes))
            in.fail(kUnpicklingError, fmt::format("'{}': storage {} is truncated", path, name));
        Tensor storage = Tensor::empty({numel}, dtype, storageDevice(in, location, mapLocation));
        if (nbytes > 0) std::memcpy(storage.dataPtr(), bytes.data(), static_cast<size_t>(nbytes));
        return storage;
    };
    const std::string data = readRecord(*pickle);
    try {
        return unpickleWeights(in, data, loadStorage);
    } catch (const ScriptError& e) {
        if (e.kind() != kUnpicklingError) throw;
        in.fail(kUnpicklingError, fmt::format("Weights only load failed. Fusescope loads every checkpoint as torch.load(weights_only=True) "
                                              "does: tensors, numbers, strings and the containers of a state dict.\n"
                                              "\tWeightsUnpickler error: {}",
                                              e.what()));
    }
}

Value torchSave(Interpreter& in, CallArgs& a) {
    expectKeywords(in, a, "save", {"obj", "f", "pickle_module", "pickle_protocol", "_use_new_zipfile_serialization", "_disable_byteorder_record"});
    const Value object = argumentOr(a, 0, "obj");
    const std::string path = pathArgument(in, argumentOr(a, 1, "f"), "torch.save");
    if (Value protocol = argumentOr(a, 3, "pickle_protocol", Value(int64_t{2})); !protocol.isInt() || protocol.asInt() != 2)
        in.fail("NotImplementedError", "torch.save: Fusescope writes pickle protocol 2 only (torch.save's default)");
    if (const Value* zipFormat = a.kwarg("_use_new_zipfile_serialization"); zipFormat && !in.truthy(*zipFormat))
        in.fail("NotImplementedError", "torch.save: Fusescope writes the zip format only (_use_new_zipfile_serialization=True)");
    if (in.tracer()) in.tracer()->onUntracedEffect("it writes a file");
    const fs::path target(path);
    std::error_code ec;
    if (target.has_parent_path() && !fs::is_directory(target.parent_path(), ec))
        in.fail("RuntimeError", fmt::format("Parent directory {} does not exist.", target.parent_path().string()));
    PickledObject pickled = pickleForTorchSave(in, object);
    const std::string folder = target.stem().string() + "/";
    try {
        ZipWriter zip(path);
        const auto store = ZipWriter::Compression::Store;
        zip.add(folder + "data.pkl", std::move(pickled.pickle), store);
        zip.add(folder + ".format_version", "1", store);
        zip.add(folder + "byteorder", "little", store);
        for (const auto& record : pickled.storages) {
            const auto* bytes = static_cast<const char*>(std::as_const(*record.storage).data());
            zip.add(folder + "data/" + record.key, std::string(bytes, record.storage->nbytes()), store);
        }
        zip.add(folder + "version", "3\n", store);
        zip.close();
    } catch (const Error& e) {
        in.fail("RuntimeError", fmt::format("torch.save: cannot write '{}': {}", path, e.what()));
    }
    return Value();
}

}  // namespace

Value makePickleModule(Interpreter& interp) {
    auto module = std::make_shared<ModuleObject>();
    module->name = "_pickle";
    module->attrs["PickleError"] = Value(ObjectPtr(interp.moduleExceptionClass("_pickle", "PickleError")));
    module->attrs["PicklingError"] = Value(ObjectPtr(interp.moduleExceptionClass("_pickle", "PicklingError", "_pickle.PickleError")));
    module->attrs["UnpicklingError"] = Value(ObjectPtr(interp.moduleExceptionClass("_pickle", "UnpicklingError", "_pickle.PickleError")));
    return Value(ObjectPtr(module));
}

void populateCheckpointFunctions(ModuleObject& torch) {
    torch.attrs["load"] = makeBuiltin("torch.load", torchLoad);
    torch.attrs["save"] = makeBuiltin("torch.save", torchSave);
}

}  // namespace fusescope
