#pragma once
// Following a TORCH_TRACE log that a running program is still writing (docs/torch-trace.md,
// "Live runs"). Each poll reads what was appended since the last one and holds back what may
// not be whole yet: a last line without its newline, and a last record whose payload may go
// on (its payload's md5 does not match the one its record names yet; in a build without
// libcrypto, until the next record begins or the writer is done). A log replaced by another
// file or cut shorter (rotated) is read again from its start. A folder is watched until a
// log appears in it (chooseTraceLog's pick), which is then followed.
//
// What is whole reads exactly as importTraceLog reads the finished log: once the writer is
// done, imported() equals loadTraceLog's import of the same file.

#include <cstdint>
#include <optional>
#include <string>

#include "torch_trace/trace_log_import.h"

namespace fusescope {

class TraceLogFollower {
public:
    // `path`: a TORCH_TRACE folder or one log; `rank`: the rank's log in a folder.
    explicit TraceLogFollower(std::string path, std::optional<int> rank = std::nullopt);

    enum class Change { None, Grew, Restarted };
    // Reads what was appended. Restarted: the log was rotated and is read from its start.
    // Throws Error when the path is gone or cannot be read.
    Change poll();
    // The writer is done (its program ended): a last record held back is taken as it is.
    void finish();

    // The whole records so far, imported (read afresh on each call).
    TorchTraceImport imported() const;
    // The log followed ("" while a folder holds none yet) and what is held of it.
    const std::string& logPath() const { return log_; }
    std::uintmax_t bytesRead() const { return offset_; }
    size_t wholeBytes() const { return whole_.size(); }
    bool holdsBack() const { return !pending_.empty(); }  // part of a record or line not whole yet

private:
    void takeWholeRecords(bool writerDone);
    void restart();

    std::string path_;
    std::optional<int> rank_;
    std::string log_;
    std::uintmax_t offset_ = 0;   // bytes of the log read
    std::uintmax_t identity_ = 0;  // the log's inode: another file under its name is a rotation
    std::string whole_;    // the whole records' text
    std::string pending_;  // after them: what may not be whole yet
};

}  // namespace fusescope
