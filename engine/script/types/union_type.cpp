// X | Y of classes (PEP 604): types.UnionType, as type aliases in public code write them
// (`DeviceDict = dict[torch.device, Tensor] | None`) and isinstance(x, int | str) reads them.

#include "script/interpreter.h"
#include "script/types/type_slots.h"
#include "script/types/union_type.h"

namespace fusescope {

namespace {

bool isUnionMember(const Value& v) {
    return v.isNone() || v.as<TypeObject>() || v.as<ClassObject>() || v.as<UnionTypeObject>();
}

// None stands for its type, as in CPython's unions.
void addMembers(Interpreter& in, ValueList& members, const Value& v) {
    if (auto* u = v.as<UnionTypeObject>()) {
        for (const Value& m : u->members) addMembers(in, members, m);
        return;
    }
    Value member = v.isNone() ? in.typeOf(v) : v.unsourced();
    auto same = [&](const Value& m) { return m.asObject() == member.asObject(); };
    if (std::none_of(members.begin(), members.end(), same)) members.push_back(member);
}

// A member as the union's repr names it: int, None, torch.Tensor, __main__.Point.
std::string memberText(const Value& v) {
    if (auto* type = v.as<TypeObject>(); type && type->name == "NoneType") return "None";
    std::string text = valueRepr(v);  // <class 'int'>
    if (text.rfind("<class '", 0) == 0 && text.size() > 10) return text.substr(8, text.size() - 10);
    return text;
}

}  // namespace

std::optional<Value> typeUnion(Interpreter& in, BinaryOperator op, const Value& left, const Value& right) {
    if (op != BinaryOperator::BitOr || !isUnionMember(left) || !isUnionMember(right)) return std::nullopt;
    auto made = std::make_shared<UnionTypeObject>();
    addMembers(in, made->members, left);
    addMembers(in, made->members, right);
    if (made->members.size() == 1) return made->members.front();  // int | int is int
    return Value(ObjectPtr(made));
}

const TypeSlots* UnionTypeObject::slots() const {
    static const GetterTable getters({
        {"__args__", [](Interpreter&, const Value& self) { return makeTuple(self.as<UnionTypeObject>()->members); }},
    });
    static const TypeSlots type{
        .name = "types.UnionType",
        .getters = &getters,
        .binary = typeUnion,
        .repr = [](const Value& self) {
            std::string text;
            for (const Value& m : self.as<UnionTypeObject>()->members) text += (text.empty() ? "" : " | ") + memberText(m);
            return text;
        }};
    return &type;
}

}  // namespace fusescope
