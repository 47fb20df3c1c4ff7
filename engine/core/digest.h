#pragma once
// Hex digests by OpenSSL's libcrypto: the md5 a TORCH_TRACE record's has_payload names, and
// the sha256 PyTorch names a size symbol by (capture/symbol_names.h). A build without
// OpenSSL has neither.

#include <optional>
#include <string>
#include <string_view>

namespace fusescope {

enum class DigestKind { Md5, Sha256 };

// Lowercase hex digest of `text`, or nullopt in a build without OpenSSL.
std::optional<std::string> hexDigest(DigestKind kind, std::string_view text);

}  // namespace fusescope
