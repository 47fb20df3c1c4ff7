#include "observe/event_schema.h"

#include <optional>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "observe/event_fields.h"

namespace fusescope {

namespace {

constexpr unsigned kNumber = kJsonInteger | kJsonFloat;

// The kinds a field of C++ type T is written as (event_fields.h's wrappers included).
template <class T>
constexpr unsigned jsonKindsOf() {
    if constexpr (DescribedStruct<T> || std::same_as<T, nlohmann::json> || std::same_as<T, TraceArgs> ||
                  requires { typename T::mapped_type; })
        return kJsonObject;
    else if constexpr (requires { T::readOnly; }) return kJsonString;  // LegacyArtifact
    else if constexpr (requires(T t) { t.texts; }) return kJsonObject;  // NonEmptyTexts
    else if constexpr (requires(T t) { t.lines; }) return kJsonArray;  // LinesPer
    else if constexpr (requires(T t) { t.number; }) return kNumber;  // AnyNumber
    else if constexpr (std::same_as<T, std::string> || std::is_enum_v<T>) return kJsonString;
    else if constexpr (std::same_as<T, bool>) return kJsonBool;
    else if constexpr (std::is_integral_v<T>) return kJsonInteger;
    else if constexpr (std::is_floating_point_v<T>) return kNumber;
    else return kJsonArray;
}

// Keyed by the descriptions' names (literals): looked up for every field of every line of
// a large events.jsonl, with no copy of the name.
using KindsByName = std::unordered_map<std::string_view, unsigned>;

struct FieldRule {
    unsigned kinds = 0;
    // Checked one level down: a nested struct's fields, or each entry of a map.
    KindsByName fields;
    unsigned entries = 0;
};
using FieldRules = std::unordered_map<std::string_view, FieldRule>;

// The schema's Io: the rules of a struct's fields, from its description.
struct RuleCollector {
    FieldRules rules;

    template <class T>
    void field(const char* name, T&& value, bool /*written*/ = true) {
        using V = std::remove_cvref_t<T>;
        FieldRule& rule = rules[name];
        rule.kinds = jsonKindsOf<V>();
        if constexpr (DescribedStruct<V>) {
            RuleCollector nested;
            describeFields(nested, value);
            for (const auto& [field, fieldRule] : nested.rules) rule.fields.emplace(field, fieldRule.kinds);
        } else if constexpr (requires { typename V::mapped_type; }) {
            rule.entries = jsonKindsOf<typename V::mapped_type>();
        } else if constexpr (requires { value.texts; } && !requires { V::readOnly; }) {
            rule.entries = kJsonString;
        }
    }
};

// Each event type's rules, by its index in Event.
const std::vector<FieldRules>& rulesByEvent() {
    static const std::vector<FieldRules> rules = [] {
        std::vector<FieldRules> out(std::variant_size_v<Event>);
        for (size_t i = 0; i < out.size(); ++i)
            withEventAlternative(i, [&]<class E>(std::type_identity<E>) {
                RuleCollector collector;
                E event{};
                describeFields(collector, event);
                out[i] = std::move(collector.rules);
            });
        return out;
    }();
    return rules;
}

const char* kindName(unsigned kinds) {
    if (kinds == kNumber) return "a number";
    switch (kinds) {
        case kJsonNull: return "null";
        case kJsonBool: return "a boolean";
        case kJsonInteger: return "an integer";
        case kJsonFloat: return "a number";
        case kJsonString: return "a string";
        case kJsonArray: return "an array";
        case kJsonObject: return "an object";
    }
    return "another kind";
}

JsonKind jsonKindOf(const nlohmann::json& value) {
    switch (value.type()) {
        case nlohmann::json::value_t::boolean: return kJsonBool;
        case nlohmann::json::value_t::number_integer:
        case nlohmann::json::value_t::number_unsigned: return kJsonInteger;
        case nlohmann::json::value_t::number_float: return kJsonFloat;
        case nlohmann::json::value_t::string: return kJsonString;
        case nlohmann::json::value_t::array: return kJsonArray;
        case nlohmann::json::value_t::object: return kJsonObject;
        default: return kJsonNull;
    }
}

bool kindFits(unsigned expected, const nlohmann::json& value) { return !expected || (expected & jsonKindOf(value)); }

// Said of a value that does not fit.
std::string kindProblem(std::string_view field, unsigned expected, const nlohmann::json& value) {
    return fmt::format("field \"{}\" is {}, expected {}", field, kindName(jsonKindOf(value)), kindName(expected));
}

}  // namespace

unsigned expectedJsonKinds(std::string_view field) {
    // A field's kinds in every event that has it: at the top level, or in "where".
    static const std::pair<KindsByName, KindsByName> byName = [] {
        std::pair<KindsByName, KindsByName> out;
        auto add = [](KindsByName& names, std::string_view name, unsigned kinds) {
            auto [it, added] = names.emplace(name, kinds);
            if (!added) it->second = (it->second & kinds) ? it->second & kinds : kJsonKindPerEventType;
        };
        for (const FieldRules& rules : rulesByEvent())
            for (const auto& [name, rule] : rules) {
                add(out.first, name, rule.kinds);
                if (name == "where")
                    for (const auto& [field, kinds] : rule.fields) add(out.second, field, kinds);
            }
        return out;
    }();
    constexpr std::string_view kWhere = "where.";
    const KindsByName& names = field.starts_with(kWhere) ? byName.second : byName.first;
    auto it = names.find(field.starts_with(kWhere) ? field.substr(kWhere.size()) : field);
    return it == names.end() ? 0 : it->second;
}

std::string eventFieldProblem(const nlohmann::json& event) {
    auto type = event.is_object() ? event.find("type") : event.end();
    if (type == event.end() || !type->is_string()) return "";
    std::optional<size_t> index = eventIndexOf(type->get_ref<const std::string&>());
    if (!index) return "";
    const FieldRules& rules = rulesByEvent()[*index];
    // Every top-level field first, then what is nested: the first problem is the same
    // whatever the nesting holds.
    for (const auto& [field, value] : event.items())
        if (auto rule = rules.find(field); rule != rules.end() && !kindFits(rule->second.kinds, value))
            return kindProblem(field, rule->second.kinds, value);
    for (const auto& [field, value] : event.items()) {
        if (!value.is_object()) continue;
        auto rule = rules.find(field);
        if (rule == rules.end() || (rule->second.fields.empty() && !rule->second.entries)) continue;
        for (const auto& [name, nested] : value.items()) {
            auto known = rule->second.fields.find(name);
            unsigned expected = known != rule->second.fields.end() ? known->second : rule->second.entries;
            if (!kindFits(expected, nested)) return kindProblem(field + "." + name, expected, nested);
        }
    }
    return "";
}

}  // namespace fusescope
