#include "torch_trace/trace_log_follower.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/digest.h"
#include "core/error.h"
#include "torch_trace/trace_log_files.h"

namespace fusescope {

namespace {

// Whether a record (its envelope line, then its payload lines, each with its newline) is
// whole: one without a payload is; one with a payload when the payload's md5 is the one its
// envelope names. Without libcrypto a payload is never known whole before the next record.
bool recordIsWhole(std::string_view record) {
    size_t lineEnd = record.find('\n');
    std::string_view envelope = record.substr(0, lineEnd);
    size_t json = envelope.find("] {");
    if (json == std::string_view::npos) return true;  // not a record: the reader warns of it
    nlohmann::json meta = nlohmann::json::parse(envelope.substr(json + 2), nullptr, false);
    if (!meta.is_object() || !meta.contains("has_payload")) return true;
    if (!meta["has_payload"].is_string()) return true;
    std::string payload;
    for (size_t at = lineEnd + 1; at < record.size();) {
        size_t end = record.find('\n', at);
        if (end == std::string_view::npos) end = record.size();
        if (!payload.empty() || at > lineEnd + 1) payload += '\n';
        payload.append(record.substr(at + 1, end - at - 1));  // the tab stripped
        at = end + 1;
    }
    std::optional<std::string> md5 = hexDigest(DigestKind::Md5, payload);
    return md5 && *md5 == meta["has_payload"].get<std::string>();
}

}  // namespace

TraceLogFollower::TraceLogFollower(std::string path, std::optional<int> rank) : path_(std::move(path)), rank_(rank) {}

void TraceLogFollower::restart() {
    offset_ = 0;
    whole_.clear();
    pending_.clear();
}

TraceLogFollower::Change TraceLogFollower::poll() {
    if (log_.empty()) {
        TraceLogChoice choice = chooseTraceLog(path_, rank_);
        std::error_code ec;
        if (!choice.error.empty() && !std::filesystem::is_directory(path_, ec)) throw Error(choice.error);
        if (choice.path.empty()) return Change::None;  // a folder no log is in yet: watched until one is
        log_ = choice.path;
    }
    struct stat st {};
    if (::stat(log_.c_str(), &st) != 0) throw Error(fmt::format("cannot read '{}': {}", log_, std::strerror(errno)));
    const auto size = static_cast<std::uintmax_t>(st.st_size);
    const bool rotated = identity_ != 0 && (static_cast<std::uintmax_t>(st.st_ino) != identity_ || size < offset_);
    if (rotated) restart();
    identity_ = static_cast<std::uintmax_t>(st.st_ino);
    const size_t before = whole_.size();
    if (size > offset_) {
        std::ifstream in(log_, std::ios::binary);
        if (!in) throw Error(fmt::format("cannot read '{}': {}", log_, std::strerror(errno)));
        in.seekg(static_cast<std::streamoff>(offset_));
        std::string appended(size - offset_, '\0');
        in.read(appended.data(), static_cast<std::streamsize>(appended.size()));
        appended.resize(static_cast<size_t>(in.gcount()));
        offset_ += appended.size();
        pending_ += appended;
        takeWholeRecords(false);
    }
    if (rotated) return Change::Restarted;
    return whole_.size() != before ? Change::Grew : Change::None;
}

void TraceLogFollower::finish() { takeWholeRecords(true); }

// Moves what is whole from pending_ to whole_: every record a later record follows, and the
// last one when it is whole; a line without its newline stays, unless the writer is done.
void TraceLogFollower::takeWholeRecords(bool writerDone) {
    if (writerDone) {
        whole_ += pending_;
        pending_.clear();
        return;
    }
    const size_t lastNewline = pending_.rfind('\n');
    if (lastNewline == std::string::npos) return;
    const size_t end = lastNewline + 1;
    size_t lastRecord = std::string::npos;
    for (size_t at = 0; at < end;) {
        size_t lineEnd = pending_.find('\n', at) + 1;
        if (pending_[at] != '\t' && lineEnd - at > 1) lastRecord = at;
        at = lineEnd;
    }
    size_t whole = lastRecord == std::string::npos ? end : lastRecord;  // payload lines of no record: the reader warns
    if (lastRecord != std::string::npos && recordIsWhole(std::string_view(pending_).substr(lastRecord, end - lastRecord))) whole = end;
    whole_.append(pending_, 0, whole);
    pending_.erase(0, whole);
}

TorchTraceImport TraceLogFollower::imported() const {
    std::istringstream in(whole_);
    return importTraceLog(in);
}

}  // namespace fusescope
