#include "toolchain/llvm/object_cache.h"

#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Config/llvm-config.h>
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
constexpr llvm::StringLiteral kEntryMagic = "fusescope-cpp-jit-cache 1\n";
constexpr size_t kDigestLength = 64;  // hex SHA-256

std::string sha256Hex(llvm::StringRef data) {
    return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(data)), /*LowerCase=*/true);
}

std::string entryPath(const std::string& dir, const std::string& key) { return dir + "/" + key + ".fsobj"; }

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
    field(source);
    return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

// Entry layout: the magic line, the SHA-256 of the body, then the body: a line with the
// three sizes, followed by the object, the IR and the assembly.
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
    llvm::SmallVector<llvm::StringRef, 3> sizeTexts;
    sizeLine.split(sizeTexts, ' ');
    size_t sizes[3];
    if (sizeTexts.size() != 3) return std::nullopt;
    for (int i = 0; i < 3; ++i)
        if (sizeTexts[i].getAsInteger(10, sizes[i])) return std::nullopt;
    if (sizes[0] + sizes[1] + sizes[2] != payload.size()) return std::nullopt;
    markCacheFileUsed(entryPath(dir, key));
    return CompiledObjectEntry{payload.substr(0, sizes[0]).str(), payload.substr(sizes[0], sizes[1]).str(),
                      payload.substr(sizes[0] + sizes[1]).str()};
}

void storeCacheEntry(const std::string& dir, const std::string& key, const CompiledObjectEntry& entry) {
    if (llvm::sys::fs::create_directories(dir)) return;
    std::string body =
        fmt::format("{} {} {}\n", entry.object.size(), entry.llvmIr.size(), entry.assembly.size()) +
        entry.object + entry.llvmIr + entry.assembly;
    // writeToOutput writes a temporary file and renames it over the entry
    llvm::consumeError(llvm::writeToOutput(entryPath(dir, key), [&](llvm::raw_ostream& out) {
        out << kEntryMagic << sha256Hex(body) << '\n' << body;
        return llvm::Error::success();
    }));
    trimCacheFolderNowAndThen(dir);
}

std::string storeCacheSource(const std::string& dir, const std::string& key, const std::string& source) {
    std::string path = dir + "/" + key + ".cpp";
    if (llvm::sys::fs::exists(path)) return path;
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
