#pragma once
// Reading fields of input that comes from elsewhere (real PyTorch's traces and logs, bundles):
// a JSON field that is missing or of another type reads as the fallback, never as an
// exception (nlohmann's value() throws on a type mismatch); a time is converted only when it
// is a finite number in range (a cast of an out-of-range double is undefined behaviour); a
// number in text that does not fit reads as the fallback (std::stoi would throw).

#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace fusescope {

inline std::string stringField(const nlohmann::json& j, const char* key, std::string fallback = "") {
    auto it = j.find(key);  // end() on a non-object too
    return it != j.end() && it->is_string() ? it->get<std::string>() : fallback;
}

inline nlohmann::json jsonField(const nlohmann::json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() ? *it : nlohmann::json();
}

inline int64_t integerField(const nlohmann::json& j, const char* key, int64_t fallback = 0) {
    auto it = j.find(key);
    return it != j.end() && it->is_number_integer() ? it->get<int64_t>() : fallback;
}

// Microseconds (Chrome trace "ts"/"dur", PyTorch's since the Unix epoch: 1.8e15 in 2026) as
// nanoseconds; nullopt for a non-number, a non-finite one, or one beyond 4e15 us (the year
// 2096; two such times still add up within int64's nanoseconds).
inline std::optional<int64_t> nanosecondsOfMicros(const nlohmann::json& microseconds) {
    if (!microseconds.is_number()) return std::nullopt;
    const double us = microseconds.get<double>();
    if (!std::isfinite(us) || std::fabs(us) > 4e15) return std::nullopt;
    return static_cast<int64_t>(us * 1000.0);
}

// Decimal digits (a line number, a rank) as an int; the fallback when they do not fit.
inline int intOfDigits(std::string_view digits, int fallback = 0) {
    int value = 0;
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    return error == std::errc() && end == digits.data() + digits.size() ? value : fallback;
}

}  // namespace fusescope
