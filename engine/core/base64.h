#pragma once
// Base64 (RFC 4648, with '=' padding, no line breaks): binary files in the engine protocol's
// JSON (docs/protocol.md, return_files) and binascii.b2a_base64 for scripts.

#include <optional>
#include <string>
#include <string_view>

namespace fusescope {

inline constexpr std::string_view kBase64Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string base64Encode(std::string_view data);
// The bytes of strict base64 (padding required, nothing else in it); nullopt when it is not.
std::optional<std::string> base64Decode(std::string_view text);

}  // namespace fusescope
