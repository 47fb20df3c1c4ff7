# enum for Fusescope scripts: Enum, IntEnum, auto, unique and EnumType (EnumMeta) as CPython
# 3.11 defines, prints and looks them up: members in definition order, aliases for repeated
# values, Color(value), Color['NAME'], iteration, len, `in` with its 3.11 TypeError, the
# functional form Enum('Color', 'RED GREEN'), _missing_ and _generate_next_value_. IntEnum
# members are not ints here (scripts cannot subclass int): they compare, hash, convert and
# do arithmetic as their values. Flag, IntFlag and StrEnum are not here.
import operator


class auto:
    def __init__(self, value=None):
        self.value = value


def _is_dunder(name):
    return len(name) > 4 and name[:2] == name[-2:] == "__" and name[2] != "_" and name[-3] != "_"


def _is_sunder(name):
    return len(name) > 2 and name[0] == name[-1] == "_" and name[1] != "_" and name[-2] != "_"


def _is_descriptor(value):
    return type(value).__name__ in ("function", "builtin_function_or_method", "property", "classmethod", "staticmethod")


def _is_member_name(cls_name, name, value):
    private = name.startswith("_" + cls_name + "__")
    return not (_is_dunder(name) or _is_sunder(name) or private or _is_descriptor(value))


class EnumType(type):
    def __new__(metacls, cls, bases, classdict, **kwds):
        definitions = [(k, v) for k, v in classdict.items() if _is_member_name(cls, k, v)]
        for name, _ in definitions:
            del classdict[name]
        enum_class = super().__new__(metacls, cls, bases, classdict, **kwds)
        enum_class._member_names_ = []
        enum_class._member_map_ = {}
        enum_class._value2member_map_ = {}
        has_members = any(isinstance(base, EnumType) and base._member_names_ for base in bases)
        if has_members and definitions:
            raise TypeError(f"<enum {cls!r}> cannot extend {bases[-1]!r}")
        last_values = []
        for name, value in definitions:
            if name in enum_class._member_map_:
                raise TypeError(f"{name!r} already defined as {enum_class._member_map_[name]._value_!r}")
            if isinstance(value, auto):
                value = value.value if value.value is not None else \
                    enum_class._generate_next_value_(name, 1, len(enum_class._member_names_), last_values[:])
            last_values.append(value)
            enum_class._add_member_(name, value)
        return enum_class

    def _add_member_(cls, name, value):
        for existing in cls._member_map_.values():
            if existing._value_ == value:  # an alias of the first member with this value
                cls._member_map_[name] = existing
                setattr(cls, name, existing)
                return
        member = object.__new__(cls)
        init = cls._member_init_()
        if init is not None:  # the class's own __init__ takes the value (a tuple spread)
            init(member, *(value if isinstance(value, tuple) else (value,)))
        member._name_ = name
        member._value_ = value
        cls._member_names_.append(name)
        cls._member_map_[name] = member
        try:
            cls._value2member_map_[value] = member
        except TypeError:
            pass
        setattr(cls, name, member)

    def _member_init_(cls):
        for base in cls.__mro__:
            if base is Enum or not isinstance(base, EnumType):
                return None
            if "__init__" in base.__dict__:
                return base.__dict__["__init__"]
        return None

    def __call__(cls, value, names=None, *, start=1):
        if names is None:
            return cls._lookup_member_(value)
        return cls._create_(value, names, start=start)

    def _lookup_member_(cls, value):
        if isinstance(value, cls):
            return value
        try:
            return cls._value2member_map_[value]
        except (KeyError, TypeError):
            pass
        for member in cls._member_map_.values():
            if member._value_ == value:
                return member
        found = cls._missing_(value)
        if isinstance(found, cls):
            return found
        if found is not None:
            raise TypeError(f"error in {cls.__name__}._missing_: returned {found!r} instead of None or a valid member")
        raise ValueError(f"{value!r} is not a valid {cls.__qualname__}")

    def _create_(cls, class_name, names, start=1):
        if isinstance(names, str):
            names = names.replace(",", " ").split()
        if isinstance(names, dict):
            items = list(names.items())
        elif names and isinstance(names[0], str):
            items = [(name, start + i) for i, name in enumerate(names)]
        else:
            items = list(names)
        classdict = {name: value for name, value in items}
        return type(cls)(class_name, (cls,), classdict)

    def __getitem__(cls, name):
        return cls._member_map_[name]

    def __iter__(cls):
        return iter([cls._member_map_[name] for name in cls._member_names_])

    def __reversed__(cls):
        return iter([cls._member_map_[name] for name in reversed(cls._member_names_)])

    def __len__(cls):
        return len(cls._member_names_)

    def __bool__(cls):
        return True

    def __contains__(cls, member):
        if not isinstance(member, Enum):
            raise TypeError(f"unsupported operand type(s) for 'in': '{type(member).__qualname__}' and '{type(cls).__qualname__}'")
        return isinstance(member, cls) and member._name_ in cls._member_map_

    @property
    def __members__(cls):
        return dict(cls._member_map_)

    def __repr__(cls):
        return f"<enum {cls.__name__!r}>"


EnumMeta = EnumType


class Enum(metaclass=EnumType):
    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        if not last_values:
            return start
        try:
            return last_values[-1] + 1
        except TypeError:
            return start

    @classmethod
    def _missing_(cls, value):
        return None

    def __repr__(self):
        return f"<{type(self).__name__}.{self._name_}: {self._value_!r}>"

    def __str__(self):
        return f"{type(self).__name__}.{self._name_}"

    def __format__(self, spec):
        return format(str(self), spec)

    def __hash__(self):
        return hash(self._name_)

    @property
    def name(self):
        return self._name_

    @property
    def value(self):
        return self._value_


def _value_of(other):
    return other._value_ if isinstance(other, Enum) else other


def _int_operator(function, reflected=False):
    if reflected:
        return lambda self, other: function(_value_of(other), self._value_)
    return lambda self, other: function(self._value_, _value_of(other))


class IntEnum(Enum):
    def __str__(self):
        return str(self._value_)

    def __format__(self, spec):
        return format(self._value_, spec)

    def __int__(self):
        return self._value_

    def __index__(self):
        return self._value_

    def __hash__(self):
        return hash(self._value_)

    __eq__ = _int_operator(operator.eq)
    __ne__ = _int_operator(operator.ne)
    __lt__ = _int_operator(operator.lt)
    __le__ = _int_operator(operator.le)
    __gt__ = _int_operator(operator.gt)
    __ge__ = _int_operator(operator.ge)
    __add__ = _int_operator(operator.add)
    __radd__ = _int_operator(operator.add, True)
    __sub__ = _int_operator(operator.sub)
    __rsub__ = _int_operator(operator.sub, True)
    __mul__ = _int_operator(operator.mul)
    __rmul__ = _int_operator(operator.mul, True)
    __truediv__ = _int_operator(operator.truediv)
    __floordiv__ = _int_operator(operator.floordiv)
    __mod__ = _int_operator(operator.mod)
    __and__ = _int_operator(operator.and_)
    __or__ = _int_operator(operator.or_)
    __xor__ = _int_operator(operator.xor)
    __lshift__ = _int_operator(operator.lshift)
    __rshift__ = _int_operator(operator.rshift)


def unique(enumeration):
    duplicates = [(name, member.name) for name, member in enumeration.__members__.items() if name != member.name]
    if duplicates:
        details = ", ".join(f"{alias} -> {name}" for alias, name in duplicates)
        raise ValueError(f"duplicate values found in {enumeration!r}: {details}")
    return enumeration
