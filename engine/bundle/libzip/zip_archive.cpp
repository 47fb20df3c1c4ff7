// The zip layer over libzip (built only with FUSESCOPE_HAVE_ZIP; zip_unavailable.cpp
// stands in otherwise).

#include "bundle/zip_archive.h"

#include <deque>

#include <fmt/format.h>
#include <zip.h>

#include "bundle/bundle_format.h"
#include "core/error.h"

namespace fusescope {

namespace {

std::string zipErrorText(int code) {
    zip_error_t error;
    zip_error_init_with_code(&error, code);
    std::string text = zip_error_strerror(&error);
    zip_error_fini(&error);
    return text;
}

}  // namespace

bool zipAvailable() { return true; }

std::string zipUnavailableReason() { return ""; }

struct ZipReader::Impl {
    zip_t* archive = nullptr;
    std::vector<ZipEntryInfo> entries;
    ~Impl() {
        if (archive) zip_discard(archive);
    }
};

ZipReader::ZipReader(const std::string& path) : impl_(std::make_unique<Impl>()) {
    int code = 0;
    impl_->archive = zip_open(path.c_str(), ZIP_RDONLY, &code);
    if (!impl_->archive) throw Error(code == ZIP_ER_NOZIP ? "not a zip file" : zipErrorText(code));
    zip_int64_t count = zip_get_num_entries(impl_->archive, 0);
    for (zip_int64_t i = 0; i < count; ++i) {
        zip_stat_t st;
        if (zip_stat_index(impl_->archive, static_cast<zip_uint64_t>(i), 0, &st) != 0)
            throw Error(fmt::format("entry {}: {}", i, zip_strerror(impl_->archive)));
        impl_->entries.push_back({st.name ? st.name : "", st.size, st.comp_size});
    }
}

ZipReader::~ZipReader() = default;

const std::vector<ZipEntryInfo>& ZipReader::entries() const { return impl_->entries; }

std::string ZipReader::read(size_t index) const {
    const ZipEntryInfo& info = impl_->entries.at(index);
    zip_file_t* file = zip_fopen_index(impl_->archive, index, 0);
    if (!file) throw Error(fmt::format("cannot read '{}': {}", printableEntryName(info.name), zip_strerror(impl_->archive)));
    std::string data;
    std::vector<char> buffer(1 << 16);
    for (;;) {
        zip_int64_t n = zip_fread(file, buffer.data(), buffer.size());
        std::string problem;
        if (n < 0) problem = fmt::format("cannot read '{}': {}", printableEntryName(info.name), zip_file_strerror(file));
        else if (data.size() + static_cast<uint64_t>(n) > info.size)
            problem = fmt::format("zip entry '{}' inflates to more than its declared {} bytes", printableEntryName(info.name), info.size);
        if (!problem.empty()) {
            zip_fclose(file);
            throw Error(problem);
        }
        if (n == 0) break;
        data.append(buffer.data(), static_cast<size_t>(n));
    }
    zip_fclose(file);
    return data;
}

struct ZipWriter::Impl {
    zip_t* archive = nullptr;
    std::deque<std::string> data;  // libzip reads the buffers only in zip_close
    ~Impl() {
        if (archive) zip_discard(archive);
    }
};

ZipWriter::ZipWriter(const std::string& path) : impl_(std::make_unique<Impl>()) {
    int code = 0;
    impl_->archive = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &code);
    if (!impl_->archive) throw Error(fmt::format("cannot create '{}': {}", path, zipErrorText(code)));
}

ZipWriter::~ZipWriter() = default;

void ZipWriter::add(const std::string& name, std::string data, Compression compression) {
    const std::string& kept = impl_->data.emplace_back(std::move(data));
    zip_source_t* source = zip_source_buffer(impl_->archive, kept.data(), kept.size(), 0);
    zip_int64_t index = source ? zip_file_add(impl_->archive, name.c_str(), source, ZIP_FL_ENC_UTF_8 | ZIP_FL_OVERWRITE) : -1;
    if (index >= 0 && compression == Compression::Store &&
        zip_set_file_compression(impl_->archive, static_cast<zip_uint64_t>(index), ZIP_CM_STORE, 0) != 0)
        throw Error(fmt::format("cannot store '{}': {}", name, zip_strerror(impl_->archive)));
    if (index >= 0) return;
    if (source) zip_source_free(source);
    throw Error(fmt::format("cannot add '{}': {}", name, zip_strerror(impl_->archive)));
}

void ZipWriter::close() {
    // On failure the archive stays open (libzip has removed its temporary file) and the
    // destructor discards it.
    if (zip_close(impl_->archive) != 0) throw Error(zip_strerror(impl_->archive));
    impl_->archive = nullptr;
}

}  // namespace fusescope
