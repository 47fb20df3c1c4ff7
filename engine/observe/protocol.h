#pragma once
// The engine protocol's messages (docs/protocol.md): JSON lines between a client (the GUI)
// and `fusescope-cli serve`. A request is {"id":..,"method":..,"params":{..}}; the server
// answers each request exactly once with {"id":..,"result":{..}} or
// {"id":..,"error":{"code":..,"message":..}}, and streams a run's events before its answer
// as {"request":..,"event":{..}}. This file only encodes and decodes; the server lives in
// app/cli/.

#include <optional>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "observe/event.h"

namespace fusescope::protocol {

inline constexpr int kVersion = 1;

// Error codes (the "code" of an error response).
inline constexpr const char* kParseError = "parse_error";          // the line is not JSON
inline constexpr const char* kInvalidRequest = "invalid_request";  // not {"id","method","params"}
inline constexpr const char* kUnknownMethod = "unknown_method";
inline constexpr const char* kInvalidParams = "invalid_params";    // missing, mistyped or bad value
inline constexpr const char* kScriptError = "script_error";        // the script raised
inline constexpr const char* kCancelled = "cancelled";
inline constexpr const char* kNotFound = "not_found";              // no such run, graph, node or request
inline constexpr const char* kInternalError = "internal_error";

// A request that cannot be served: becomes an error response.
class Failure : public std::runtime_error {
public:
    Failure(std::string code, const std::string& message, nlohmann::json data = nullptr)
        : std::runtime_error(message), code_(std::move(code)), data_(std::move(data)) {}
    const std::string& code() const { return code_; }
    const nlohmann::json& data() const { return data_; }

private:
    std::string code_;
    nlohmann::json data_;  // extra fields of the error object (e.g. "where"); null: none
};

struct Request {
    nlohmann::json id;  // a number or a string, echoed back
    std::string method;
    nlohmann::json params = nlohmann::json::object();
};

// Decodes one request line. Throws Failure (parse_error / invalid_request); `id` is set to
// the request's id when one could be read, so the error response can name it.
Request parseRequest(const std::string& line, nlohmann::json& id);

nlohmann::json eventMessage(const nlohmann::json& requestId, const Event& event);
nlohmann::json resultMessage(const nlohmann::json& id, nlohmann::json result);
nlohmann::json errorMessage(const nlohmann::json& id, const Failure& failure);
// A message as the line the server writes: compact JSON and a newline, invalid UTF-8 (a
// script's bytes, or a bad request quoted by its error) replaced by U+FFFD.
std::string messageLine(const nlohmann::json& message);

// Typed access to params; a present value of the wrong type is a Failure (invalid_params).
std::optional<std::string> stringParam(const nlohmann::json& params, const std::string& name);
std::string requiredStringParam(const nlohmann::json& params, const std::string& name);
std::optional<bool> boolParam(const nlohmann::json& params, const std::string& name);
// A request id param (number or string).
std::optional<nlohmann::json> idParam(const nlohmann::json& params, const std::string& name);

}  // namespace fusescope::protocol
