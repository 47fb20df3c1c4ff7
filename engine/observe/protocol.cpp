#include "observe/protocol.h"

#include <fmt/format.h>

#include "core/json_text.h"
#include "observe/json_nesting.h"

namespace fusescope::protocol {

using nlohmann::json;

namespace {

bool isId(const json& v) { return v.is_number_integer() || v.is_string(); }

const json* param(const json& params, const std::string& name, json::value_t type, const char* typeName) {
    auto it = params.find(name);
    if (it == params.end() || it->is_null()) return nullptr;
    if (it->type() != type)
        throw Failure(kInvalidParams, fmt::format("param '{}' must be a {}, got {}", name, typeName, it->dump()));
    return &*it;
}

}  // namespace

Request parseRequest(const std::string& line, json& id) {
    if (jsonNestsDeeperThan(line))
        throw Failure(kParseError, fmt::format("the line nests JSON deeper than {} levels", kMaxJsonNesting));
    json message;
    try {
        message = json::parse(line);
    } catch (const json::exception& e) {  // parse_error, or out_of_range for a number like 1e400
        throw Failure(kParseError, fmt::format("the line is not JSON: {}", e.what()));
    }
    if (!message.is_object()) throw Failure(kInvalidRequest, "a request must be a JSON object");
    auto idField = message.find("id");
    if (idField == message.end() || !isId(*idField))
        throw Failure(kInvalidRequest, "a request needs an \"id\" (an integer or a string)");
    id = *idField;
    Request request;
    request.id = id;
    auto method = message.find("method");
    if (method == message.end() || !method->is_string())
        throw Failure(kInvalidRequest, "a request needs a \"method\" (a string)");
    request.method = method->get<std::string>();
    if (auto params = message.find("params"); params != message.end() && !params->is_null()) {
        if (!params->is_object()) throw Failure(kInvalidRequest, "\"params\" must be a JSON object");
        request.params = *params;
    }
    return request;
}

std::string messageLine(const json& message) { return jsonText(message) + "\n"; }

json eventMessage(const json& requestId, const Event& event) {
    return json{{"request", requestId}, {"event", eventToJson(event)}};
}

json resultMessage(const json& id, json result) { return json{{"id", id}, {"result", std::move(result)}}; }

json errorMessage(const json& id, const Failure& failure) {
    json error = failure.data().is_object() ? failure.data() : json::object();
    error["code"] = failure.code();
    error["message"] = failure.what();
    return json{{"id", id}, {"error", std::move(error)}};
}

std::optional<std::string> stringParam(const json& params, const std::string& name) {
    const json* v = param(params, name, json::value_t::string, "string");
    return v ? std::optional(v->get<std::string>()) : std::nullopt;
}

std::string requiredStringParam(const json& params, const std::string& name) {
    auto v = stringParam(params, name);
    if (!v) throw Failure(kInvalidParams, fmt::format("missing param '{}'", name));
    return *v;
}

std::optional<bool> boolParam(const json& params, const std::string& name) {
    const json* v = param(params, name, json::value_t::boolean, "boolean");
    return v ? std::optional(v->get<bool>()) : std::nullopt;
}

std::optional<json> idParam(const json& params, const std::string& name) {
    auto it = params.find(name);
    if (it == params.end() || it->is_null()) return std::nullopt;
    if (!isId(*it)) throw Failure(kInvalidParams, fmt::format("param '{}' must be a request id (an integer or a string)", name));
    return *it;
}

}  // namespace fusescope::protocol
