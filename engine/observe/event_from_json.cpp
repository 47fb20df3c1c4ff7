#include "observe/event_from_json.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "observe/event_fields.h"

namespace fusescope {

using nlohmann::json;

namespace {

// A number as the integer T, a fraction dropped and clamped: a bundle made elsewhere may
// hold any number there.
template <class T>
T clampedInteger(const json& v) {
    int64_t n = 0;
    if (v.is_number_float()) {
        double d = v.get<double>();
        n = d >= 0x1p63 ? INT64_MAX : d < -0x1p63 ? INT64_MIN : static_cast<int64_t>(d);
    } else {
        n = v.is_number_unsigned() && v.get<uint64_t>() > uint64_t(INT64_MAX) ? INT64_MAX : v.get<int64_t>();
    }
    return static_cast<T>(std::clamp<int64_t>(n, std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
}

// The reader: a field missing, or of another kind, keeps its default; an element of a list
// or map of another kind is left out.
class JsonReader {
public:
    explicit JsonReader(const json& object) : object_(object) {}

    template <class T>
    void field(const char* name, T&& value, bool /*written*/ = true) {
        if (auto it = object_.find(name); it != object_.end()) read(*it, value);
    }

private:
    // Whether v is of the kind `out` takes (then read into it).
    template <class T>
    bool read(const json& v, T& out) const {
        if constexpr (DescribedStruct<T>) {
            if (!v.is_object()) return false;
            JsonReader fields(v);
            describeFields(fields, out);
        } else if constexpr (std::same_as<T, std::string>) {
            if (!v.is_string()) return false;
            out = v.get<std::string>();
        } else if constexpr (std::same_as<T, bool>) {
            if (!v.is_boolean()) return false;
            out = v.get<bool>();
        } else if constexpr (std::is_enum_v<T>) {
            if (!v.is_string()) return false;
            if (auto value = enumFromName(v.get_ref<const std::string&>(), out)) out = *value;
        } else if constexpr (std::is_integral_v<T>) {
            if (!v.is_number_integer()) return false;
            out = clampedInteger<T>(v);
        } else if constexpr (std::is_floating_point_v<T>) {
            if (!v.is_number()) return false;
            out = v.get<T>();
        } else if constexpr (std::same_as<T, json>) {
            if (!v.is_object()) return false;
            out = v;
        } else if constexpr (std::same_as<T, TraceArgs>) {
            if (!v.is_object()) return false;
            auto list = [&](const char* name) { return v.contains(name) ? v[name] : json(); };
            out = {list("values"), list("shapes"), list("types"), list("strides")};
        } else if constexpr (std::same_as<T, std::pair<int, int>>) {  // a line range
            if (!v.is_array() || v.size() != 2 || !v[0].is_number_integer() || !v[1].is_number_integer()) return false;
            out = {clampedInteger<int>(v[0]), clampedInteger<int>(v[1])};
        } else if constexpr (requires { out.texts.emplace(out.name, std::string()); }) {  // LegacyArtifact
            if (!v.is_string()) return false;
            if (!v.get_ref<const std::string&>().empty()) out.texts.emplace(out.name, v.get<std::string>());
        } else if constexpr (requires { out.texts; }) {  // NonEmptyTexts
            if (!v.is_object()) return false;
            for (auto it = v.begin(); it != v.end(); ++it)
                if (it->is_string() && !it->get_ref<const std::string&>().empty()) out.texts.emplace(it.key(), it->get<std::string>());
        } else if constexpr (requires { out.lines; }) {  // LinesPer
            auto of = object_.find(out.of);
            if (!v.is_array()) return false;
            if (of == object_.end() || !of->is_array() || of->size() != v.size()) return true;
            for (size_t i = 0; i < v.size(); ++i)
                if ((*of)[i].is_string()) out.lines.push_back(v[i].is_number_integer() ? clampedInteger<int>(v[i]) : 0);
        } else if constexpr (requires { out.number; }) {  // AnyNumber
            if (!v.is_number()) return false;
            out.number = clampedInteger<std::remove_reference_t<decltype(out.number)>>(v);
        } else if constexpr (requires { typename T::mapped_type; }) {
            if (!v.is_object()) return false;
            for (auto it = v.begin(); it != v.end(); ++it)
                if (typename T::mapped_type value{}; read(*it, value)) out[it.key()] = std::move(value);
        } else {  // a vector
            if (!v.is_array()) return false;
            for (const json& element : v)
                if (typename T::value_type value{}; read(element, value)) out.push_back(std::move(value));
        }
        return true;
    }

    const json& object_;
};

}  // namespace

std::optional<Event> eventFromJson(const json& j) {
    auto type = j.is_object() ? j.find("type") : j.end();
    if (type == j.end() || !type->is_string()) return std::nullopt;
    std::optional<size_t> index = eventIndexOf(type->get_ref<const std::string&>());
    if (!index) return std::nullopt;
    std::optional<Event> out;
    withEventAlternative(*index, [&]<class E>(std::type_identity<E>) {
        E event{};
        if constexpr (std::same_as<E, IrDumpEvent>) event.stage = type->get<std::string>();
        JsonReader reader(j);
        describeFields(reader, event);
        out = std::move(event);
    });
    return out;
}

TraceRecord traceRecordFromJson(const json& j) {
    TraceRecord record;
    JsonReader reader(j);
    describeFields(reader, record);
    return record;
}

}  // namespace fusescope
