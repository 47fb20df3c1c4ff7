// The zip layer in a build without libzip (FUSESCOPE_HAVE_ZIP off): it exists so callers
// need no #ifdefs, says why bundles are unavailable, and reads or writes nothing.

#include "bundle/zip_archive.h"

#include "core/error.h"

namespace fusescope {

bool zipAvailable() { return false; }

std::string zipUnavailableReason() {
    return "bundles and checkpoints need libzip; this build has none (FUSESCOPE_WITH_ZIP=OFF or libzip not found)";
}

struct ZipReader::Impl {
    std::vector<ZipEntryInfo> entries;
};

ZipReader::ZipReader(const std::string&) { throw Error(zipUnavailableReason()); }
ZipReader::~ZipReader() = default;
const std::vector<ZipEntryInfo>& ZipReader::entries() const { return impl_->entries; }
std::string ZipReader::read(size_t) const { throw Error(zipUnavailableReason()); }

struct ZipWriter::Impl {};

ZipWriter::ZipWriter(const std::string&) { throw Error(zipUnavailableReason()); }
ZipWriter::~ZipWriter() = default;
void ZipWriter::add(const std::string&, std::string, Compression) { throw Error(zipUnavailableReason()); }
void ZipWriter::close() { throw Error(zipUnavailableReason()); }

}  // namespace fusescope
