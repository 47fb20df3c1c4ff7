// safetensors.torch for scripts: load_file/save_file (a path) and load/save (bytes) in the
// safetensors format: an 8-byte little-endian header length, the header (JSON: each tensor's
// dtype, shape and [begin, end) in the data that follows; "__metadata__" strings), padded
// with spaces to 8 bytes, then the tensors' bytes. Written as the safetensors package
// writes it (tensors by element size, largest first, then by name), read with its checks
// and its error words (safetensors_rust.SafetensorError). No code runs on loading.
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "script/interpreter.h"
#include "script/types/bytes_type.h"
#include "script/types/method_table.h"

namespace fusescope {

namespace {

using Json = nlohmann::ordered_json;

constexpr uint64_t kMaxHeader = 100'000'000;  // the safetensors package's limit

const std::vector<std::pair<DType, const char*>>& dtypeCodes() {
    static const std::vector<std::pair<DType, const char*>> codes = {
        {DType::Float64, "F64"}, {DType::Float32, "F32"}, {DType::Float16, "F16"}, {DType::BFloat16, "BF16"},
        {DType::Int64, "I64"},   {DType::Int32, "I32"},   {DType::Bool, "BOOL"}, {DType::Complex64, "C64"}};
    return codes;
}

[[noreturn]] void safetensorError(Interpreter& in, const std::string& message) { in.fail("safetensors_rust.SafetensorError", message); }
[[noreturn]] void headerError(Interpreter& in, const std::string& message) {
    safetensorError(in, "Error while deserializing header: " + message);
}

// The tensors of a safetensors file's bytes, in the order of their data.
Value deserialize(Interpreter& in, const std::string& data) {
    if (data.size() < 8) headerError(in, "header too small");
    uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = n << 8 | static_cast<unsigned char>(data[static_cast<size_t>(i)]);
    if (n > kMaxHeader) headerError(in, "header too large");
    if (n > data.size() - 8) headerError(in, "invalid header length");
    Json header;
    try {
        header = Json::parse(data.substr(8, n));
    } catch (const Json::exception& e) {
        headerError(in, std::string("invalid JSON in header: ") + e.what());
    }
    if (!header.is_object()) headerError(in, "invalid JSON in header: expected an object of tensors");
    const size_t bufferStart = 8 + n, bufferSize = data.size() - bufferStart;
    struct Entry {
        std::string name;
        DType dtype;
        Shape shape;
        uint64_t begin, end;
        uint64_t elements;  // UINT64_MAX when the shape's product overflows
    };
    std::vector<Entry> entries;
    for (const auto& [name, info] : header.items()) {
        if (name == "__metadata__") continue;
        const Json* dtype = info.is_object() && info.contains("dtype") ? &info["dtype"] : nullptr;
        if (!dtype || !dtype->is_string() || !info.contains("shape") || !info["shape"].is_array() || !info.contains("data_offsets") ||
            !info["data_offsets"].is_array() || info["data_offsets"].size() != 2)
            headerError(in, fmt::format("invalid JSON in header: tensor '{}' needs dtype, shape and data_offsets", name));
        auto code = std::find_if(dtypeCodes().begin(), dtypeCodes().end(), [&](const auto& c) { return dtype->get<std::string>() == c.second; });
        if (code == dtypeCodes().end())
            safetensorError(in, fmt::format("tensor '{}' is of dtype {}, which Fusescope has no tensors of", name, dtype->get<std::string>()));
        Entry e{name, code->first, {}, 0, 0, 0};
        uint64_t elements = 1;
        bool overflow = false;
        for (const Json& d : info["shape"]) {
            if (!d.is_number_unsigned()) headerError(in, fmt::format("invalid JSON in header: tensor '{}' has a shape that is not of sizes", name));
            const uint64_t size = d.get<uint64_t>();
            overflow = overflow || size > static_cast<uint64_t>(INT64_MAX) || (size && elements > UINT64_MAX / size);
            elements *= size;
            e.shape.push_back(static_cast<int64_t>(size));
        }
        for (const Json& o : info["data_offsets"])
            if (!o.is_number_unsigned()) headerError(in, fmt::format("invalid JSON in header: tensor '{}' has offsets that are not", name));
        e.begin = info["data_offsets"][0].get<uint64_t>();
        e.end = info["data_offsets"][1].get<uint64_t>();
        e.elements = overflow ? UINT64_MAX : elements;
        entries.push_back(std::move(e));
    }
    // As the safetensors package validates: in the order of their data, each tensor starts
    // where the last ended and fills its bytes exactly, and together they cover the data.
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.begin < b.begin; });
    uint64_t covered = 0;
    for (const Entry& e : entries) {
        if (e.begin != covered || e.end < e.begin) headerError(in, fmt::format("invalid offset for tensor `{}`", e.name));
        const uint64_t size = dtypeSize(e.dtype);
        if (e.elements > (e.end - e.begin) / size || e.elements * size != e.end - e.begin)
            headerError(in, "invalid shape, data type, or offset for tensor");
        covered = e.end;
    }
    if (covered != bufferSize) headerError(in, "incomplete metadata, file not fully covered");
    auto out = std::make_shared<DictObject>();
    for (const Entry& e : entries) {
        Tensor t = Tensor::empty(e.shape, e.dtype);
        if (e.end > e.begin) std::memcpy(t.dataPtr(), data.data() + bufferStart + e.begin, e.end - e.begin);
        out->set(Value(e.name), Value(t));
    }
    return Value(ObjectPtr(out));
}

// The bytes of a safetensors file holding `tensors` (a dict of str to contiguous tensors).
std::string serialize(Interpreter& in, const Value& tensors, const Value& metadata) {
    const auto* dict = tensors.as<DictObject>();
    if (!dict) in.fail("TypeError", "save: tensors must be a dict of str to Tensor, not " + pythonTypeName(tensors));
    struct Item {
        std::string name;
        Tensor tensor;
    };
    std::vector<Item> items;
    std::map<const Storage*, std::vector<std::string>> byStorage;
    for (const auto& [key, value] : dict->items) {
        if (!key.isString() || !value.isTensor()) in.fail("TypeError", "save: tensors must be a dict of str to Tensor");
        const Tensor& t = value.asTensor();
        if (!t.isContiguous())
            in.fail("ValueError", fmt::format("You are trying to save a non contiguous tensor: `{}` which is not allowed. It either means you "
                                              "are trying to save tensors which are reference of each other in which case it's "
                                              "recommended to save only the full tensors, and reslice at load time, or simply call "
                                              "`.contiguous()` on your tensor to pack it before saving.",
                                              key.asString()));
        if (t.storage() && t.numel() > 0) byStorage[t.storage().get()].push_back(key.asString());
        items.push_back({key.asString(), t});
    }
    for (const auto& [storage, names] : byStorage)
        if (names.size() > 1)
            in.fail("RuntimeError", fmt::format("\n            Some tensors share memory, this will lead to duplicate memory on disk and "
                                                "potential differences when loading them again: [{{'{}'}}].\n            A potential way "
                                                "to correctly save your model is to use `save_model`.\n            More information at "
                                                "https://huggingface.co/docs/safetensors/torch_shared_tensors\n            ",
                                                fmt::join(names, "', '")));
    std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
        const size_t sa = dtypeSize(a.tensor.dtype()), sb = dtypeSize(b.tensor.dtype());
        return sa != sb ? sa > sb : a.name < b.name;
    });
    Json header = Json::object();
    if (!metadata.isNone()) {
        const auto* meta = metadata.as<DictObject>();
        if (!meta) in.fail("TypeError", "save: metadata must be a dict of str to str");
        Json m = Json::object();
        for (const auto& [k, v] : meta->items) {
            if (!k.isString() || !v.isString()) in.fail("TypeError", "save: metadata must be a dict of str to str");
            m[k.asString()] = v.asString();
        }
        header["__metadata__"] = m;
    }
    std::string body;
    for (const Item& item : items) {
        auto code = std::find_if(dtypeCodes().begin(), dtypeCodes().end(), [&](const auto& c) { return c.first == item.tensor.dtype(); });
        const size_t bytes = static_cast<size_t>(item.tensor.numel()) * dtypeSize(item.tensor.dtype());
        header[item.name] = {{"dtype", code->second}, {"shape", item.tensor.sizes()}, {"data_offsets", {body.size(), body.size() + bytes}}};
        if (bytes) body.append(static_cast<const char*>(item.tensor.dataPtr()), bytes);
    }
    std::string text = header.dump();
    text.append((8 - text.size() % 8) % 8, ' ');
    std::string out(8, '\0');
    for (int i = 0; i < 8; ++i) out[static_cast<size_t>(i)] = static_cast<char>((text.size() >> (8 * i)) & 0xff);
    return out + text + body;
}

std::string fileArgument(Interpreter& in, const Value& v, const char* function) {
    if (!v.isString()) in.fail("TypeError", fmt::format("{}: the file must be a path, a str, not {}", function, pythonTypeName(v)));
    return v.asString();
}

}  // namespace

Value makeSafetensorsModule(Interpreter& interp) {
    auto module = std::make_shared<ModuleObject>();
    module->name = "safetensors";
    auto torch = std::make_shared<ModuleObject>();
    torch->name = "safetensors.torch";
    module->attrs["SafetensorError"] = Value(ObjectPtr(interp.moduleExceptionClass("safetensors_rust", "SafetensorError")));
    torch->attrs["load"] = makeBuiltin("safetensors.torch.load", [](Interpreter& in, CallArgs& a) {
        return deserialize(in, requireBytes(in, argumentOr(a, 0, "data")));
    });
    torch->attrs["save"] = makeBuiltin("safetensors.torch.save", [](Interpreter& in, CallArgs& a) {
        return makeBytes(serialize(in, argumentOr(a, 0, "tensors"), argumentOr(a, 1, "metadata")));
    });
    torch->attrs["load_file"] = makeBuiltin("safetensors.torch.load_file", [](Interpreter& in, CallArgs& a) {
        const std::string path = fileArgument(in, argumentOr(a, 0, "filename"), "load_file");
        if (Value device = argumentOr(a, 1, "device", Value("cpu")); !(device.isString() && device.asString() == "cpu") && !(device.isDevice() && device.asDevice().isCpu()))
            in.fail("NotImplementedError", "load_file: Fusescope loads safetensors onto the CPU only (device='cpu')");
        std::ifstream file(path, std::ios::binary);
        if (!file || std::filesystem::is_directory(path)) in.fail("FileNotFoundError", fmt::format("No such file or directory: \"{}\"", path));
        std::ostringstream data;
        data << file.rdbuf();
        return deserialize(in, data.str());
    });
    torch->attrs["save_file"] = makeBuiltin("safetensors.torch.save_file", [](Interpreter& in, CallArgs& a) {
        const std::string path = fileArgument(in, argumentOr(a, 1, "filename"), "save_file");
        const std::string data = serialize(in, argumentOr(a, 0, "tensors"), argumentOr(a, 2, "metadata"));
        std::ofstream file(path, std::ios::binary | std::ios::trunc);
        if (!file || !file.write(data.data(), static_cast<std::streamsize>(data.size())))
            in.fail("OSError", fmt::format("save_file: cannot write '{}'", path));
        return Value();
    });
    module->attrs["torch"] = Value(ObjectPtr(torch));
    return Value(ObjectPtr(module));
}

}  // namespace fusescope
