#include "toolchain/llvm/object_cache.h"

#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/Support/Compression.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SHA256.h>
#include <llvm/Support/raw_ostream.h>

#include "toolchain/cache_size_limit.h"
#include "toolchain/llvm/clang_frontend.h"
#include "toolchain/llvm/host_target.h"

namespace fusescope {

namespace {

// Bump when the way modules are compiled changes in a way the key does not see (the
// optimisation pipeline, the vector function table, code generation options).
constexpr const char* kToolchainVersion = "fusescope-cpp-jit 3";  // 3: zmm arguments for AVX-512 libmvec calls
constexpr llvm::StringLiteral kEntryMagic = "fusescope-cpp-jit-cache 2\n";  // 2: the text zstd-packed
constexpr size_t kDigestLength = 64;  // hex SHA-256

std::string sha256Hex(llvm::StringRef data) {
    return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(data)), /*LowerCase=*/true);
}

std::string entryPath(const std::string& dir, const std::string& key) { return dir + "/" + key + ".fsobj"; }

// The source less its comment lines, which name the script's file and lines: nothing
// compiled depends on them (no debug info), so the same kernel from another folder, clone
// or edit of a comment shares one entry. A line after a backslash stays: it continues a line.
std::string codeOf(llvm::StringRef source) {
    std::string code;
    code.reserve(source.size());
    bool continued = false;
    while (!source.empty()) {
        auto [line, rest] = source.split('\n');
        source = rest;
        if (!continued && line.ltrim().startswith("//")) continue;
        continued = line.endswith("\\");
        code.append(line.data(), line.size()).push_back('\n');
    }
    return code;
}

// The IR and the assembly (nine tenths of an entry) compress about 8x with zstd; an LLVM
// built without zstd stores them as they are.
const char* packingName() { return llvm::compression::zstd::isAvailable() ? "zstd" : "none"; }

std::string packText(const std::string& text) {
    if (!llvm::compression::zstd::isAvailable()) return text;
    llvm::SmallVector<uint8_t, 0> packed;
    llvm::compression::zstd::compress(llvm::arrayRefFromStringRef(text), packed);
    return std::string(llvm::toStringRef(packed));
}

std::optional<std::string> unpackText(llvm::StringRef packing, llvm::StringRef packed, size_t size) {
    if (packing == "none") return packed.size() == size ? std::optional(packed.str()) : std::nullopt;
    if (packing != "zstd" || !llvm::compression::zstd::isAvailable()) return std::nullopt;
    std::string text(size, '\0');
    size_t unpacked = size;
    llvm::Error error = llvm::compression::zstd::decompress(llvm::arrayRefFromStringRef(packed),
                                                           reinterpret_cast<uint8_t*>(text.data()), unpacked);
    if (error || unpacked != size) {
        llvm::consumeError(std::move(error));
        return std::nullopt;
    }
    return text;
}

}  // namespace

std::string cacheKey(const std::string& source) {
    llvm::SHA256 hash;
    auto field = [&](llvm::StringRef text) {
        hash.update(text);
        hash.update(llvm::StringRef("\0", 1));  // so fields cannot run into each other
    };
    const HostTarget& host = HostTarget::get();
    field(kToolchainVersion);
    field(LLVM_VERSION_STRING);
    field(host.triple);
    field(host.cpu);
    field(host.tuneCpu);
    field(host.featureString());
    for (const auto& flag : clangFlags()) field(flag);
    field(codeOf(source));
    return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

// Entry layout: the magic line, the SHA-256 of the body, then the body: a line
// "<packing> <object size> <IR size> <assembly size> <packed size>", the object, then the IR
// and the assembly together as packText packed them (zstd, or "none").
std::optional<CompiledObjectEntry> loadCacheEntry(const std::string& dir, const std::string& key) {
    auto file = llvm::MemoryBuffer::getFile(entryPath(dir, key), /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
    if (!file) return std::nullopt;
    llvm::StringRef data = (*file)->getBuffer();
    if (!data.consume_front(kEntryMagic) || data.size() < kDigestLength + 1) return std::nullopt;
    llvm::StringRef digest = data.take_front(kDigestLength);
    llvm::StringRef body = data.drop_front(kDigestLength);
    if (!body.consume_front("\n") || sha256Hex(body) != digest) return std::nullopt;

    auto [sizeLine, payload] = body.split('\n');
    llvm::SmallVector<llvm::StringRef, 5> fields;
    sizeLine.split(fields, ' ');
    size_t sizes[4];  // object, IR, assembly, packed text
    if (fields.size() != 5) return std::nullopt;
    for (int i = 0; i < 4; ++i)
        if (fields[i + 1].getAsInteger(10, sizes[i])) return std::nullopt;
    if (sizes[0] + sizes[3] != payload.size()) return std::nullopt;
    auto text = unpackText(fields[0], payload.substr(sizes[0]), sizes[1] + sizes[2]);
    if (!text) return std::nullopt;
    markCacheFileUsed(entryPath(dir, key));
    return CompiledObjectEntry{payload.substr(0, sizes[0]).str(), text->substr(0, sizes[1]), text->substr(sizes[1])};
}

void storeCacheEntry(const std::string& dir, const std::string& key, const CompiledObjectEntry& entry) {
    if (llvm::sys::fs::create_directories(dir)) return;
    std::string packed = packText(entry.llvmIr + entry.assembly);
    std::string body = fmt::format("{} {} {} {} {}\n", packingName(), entry.object.size(), entry.llvmIr.size(),
                                   entry.assembly.size(), packed.size()) +
                       entry.object + packed;
    // writeToOutput writes a temporary file and renames it over the entry
    llvm::consumeError(llvm::writeToOutput(entryPath(dir, key), [&](llvm::raw_ostream& out) {
        out << kEntryMagic << sha256Hex(body) << '\n' << body;
        return llvm::Error::success();
    }));
    trimCacheFolderNowAndThen(dir);
}

std::string storeCacheSource(const std::string& dir, const std::string& source) {
    std::string path = dir + "/" + sha256Hex(source) + ".cpp";
    if (llvm::sys::fs::exists(path)) {
        markCacheFileUsed(path);
        return path;
    }
    if (llvm::sys::fs::create_directories(dir)) return "";
    llvm::Error error = llvm::writeToOutput(path, [&](llvm::raw_ostream& out) {
        out << source;
        return llvm::Error::success();
    });
    if (error) {
        llvm::consumeError(std::move(error));
        return "";
    }
    return path;
}

}  // namespace fusescope
