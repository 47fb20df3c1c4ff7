#pragma once
// torch.profiler.ExecutionTraceObserver: records what runs between start() and stop()
// (several windows may be recorded) and writes PyTorch's execution-trace JSON to the
// registered file on each stop() and on unregister_callback(), so the file is complete
// whenever recording is off. An observer never started still writes a valid file with the
// root node.

#include <mutex>
#include <string>
#include <vector>

#include "profile/profiler.h"

namespace fusescope {

class ExecutionTraceObserver : public TraceSink {
public:
    ~ExecutionTraceObserver() override;

    void registerCallback(std::string path);
    void start();
    void stop();
    void unregisterCallback();
    bool running() const { return running_; }
    const std::string& outputFilePath() const { return path_; }

    void onRecord(const TraceRecord& record) override;

private:
    void writeFile();  // throws Error when the file cannot be written

    std::string path_;
    bool running_ = false;
    int64_t startNs_ = 0, finishNs_ = 0;
    std::mutex mutex_;
    std::vector<TraceRecord> records_;
};

}  // namespace fusescope
