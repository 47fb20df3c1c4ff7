#pragma once
// The only interface to libzip (bundle/libzip/). In a build without libzip
// (FUSESCOPE_HAVE_ZIP off) zip_unavailable.cpp stands in: zipAvailable() is false and
// opening an archive throws Error(zipUnavailableReason()), so callers need no #ifdefs.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace fusescope {

bool zipAvailable();
std::string zipUnavailableReason();

struct ZipEntryInfo {
    std::string name;
    uint64_t size = 0;            // uncompressed, as the archive declares it
    uint64_t compressedSize = 0;  // as stored
};

// An archive opened for reading. Throws Error when the file is missing or not a zip.
class ZipReader {
public:
    explicit ZipReader(const std::string& path);
    ~ZipReader();
    ZipReader(const ZipReader&) = delete;
    ZipReader& operator=(const ZipReader&) = delete;

    const std::vector<ZipEntryInfo>& entries() const;
    // The entry's bytes. Throws Error when it is corrupt or inflates to more than its
    // declared size (a header that lies must not get past the size checks made on it).
    std::string read(size_t index) const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// A new archive at path (replacing any file there), written by close(). Not atomic by
// itself: bundle_writer.h writes to a temporary name and renames. Destroying an unclosed
// writer discards the archive.
class ZipWriter {
public:
    explicit ZipWriter(const std::string& path);
    ~ZipWriter();
    ZipWriter(const ZipWriter&) = delete;
    ZipWriter& operator=(const ZipWriter&) = delete;

    // Deflated by default; stored as is where a reader wants the bytes in place (PyTorch's
    // checkpoints store every record so).
    enum class Compression { Deflate, Store };
    void add(const std::string& name, std::string data, Compression compression = Compression::Deflate);
    void close();  // throws Error when the archive cannot be written

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace fusescope
