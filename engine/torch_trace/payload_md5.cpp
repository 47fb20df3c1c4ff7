#include "torch_trace/payload_md5.h"

#ifdef FUSESCOPE_HAVE_MD5
#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <fmt/format.h>
#endif

namespace fusescope {

std::optional<std::string> payloadMd5(std::string_view text) {
#ifdef FUSESCOPE_HAVE_MD5
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    const bool digested = EVP_Digest(text.data(), text.size(), digest, &size, EVP_md5(), nullptr);
    // The digest leaves per-thread state that OpenSSL frees when the thread exits, unless its
    // atexit cleanup ran first: a GUI pool thread that read a log outlives it, and LeakSanitizer
    // reported 904 bytes. Free it now (~0.05 us a call); the next call remakes it.
    OPENSSL_thread_stop();
    if (!digested) return std::nullopt;
    std::string hex;
    for (unsigned int i = 0; i < size; ++i) hex += fmt::format("{:02x}", digest[i]);
    return hex;
#else
    (void)text;
    return std::nullopt;
#endif
}

}  // namespace fusescope
