#include "bundle/event_lines.h"

namespace fusescope {

std::vector<EventLineChunk> eventLineChunks(std::string_view text) {
    constexpr size_t kMinChunkBytes = size_t{4} << 20;  // below this a thread costs more than it saves
    size_t threads = std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 16);
    size_t count = std::clamp<size_t>(text.size() / kMinChunkBytes, 1, threads);
    std::vector<EventLineChunk> chunks;
    size_t offset = 0;
    for (size_t left = count; left > 1 && offset < text.size(); --left) {
        size_t cut = text.find('\n', offset + (text.size() - offset) / left);
        if (cut == std::string_view::npos) break;
        chunks.push_back({text.substr(offset, cut + 1 - offset), offset});
        offset = cut + 1;
    }
    chunks.push_back({text.substr(offset), offset});
    return chunks;
}

}  // namespace fusescope
