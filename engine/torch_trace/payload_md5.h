#pragma once
// The md5 a TORCH_TRACE record's has_payload names, over its payload text (libcrypto's; a
// build without OpenSSL checks none).

#include <optional>
#include <string>
#include <string_view>

namespace fusescope {

// Lowercase hex md5 of `text`, or nullopt in a build without OpenSSL.
std::optional<std::string> payloadMd5(std::string_view text);

}  // namespace fusescope
