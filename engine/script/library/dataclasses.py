# dataclasses for Fusescope scripts: @dataclass (init, repr, eq, order, frozen, unsafe_hash,
# __post_init__), field, fields, asdict, astuple, replace, is_dataclass. The generated
# methods are ordinary functions that read the class's field list, rather than source text
# compiled per class as CPython does; what scripts see is the same.


class _MissingType:
    def __repr__(self):
        return "MISSING"


MISSING = _MissingType()


class FrozenInstanceError(AttributeError):
    pass


class Field:
    def __init__(self, default, default_factory, init, repr, compare):
        self.name = None
        self.type = None
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr
        self.compare = compare

    def __repr__(self):
        return f"Field(name={self.name!r},type={self.type!r},default={self.default!r},default_factory={self.default_factory!r},init={self.init!r},repr={self.repr!r},compare={self.compare!r})"


def field(*, default=MISSING, default_factory=MISSING, init=True, repr=True, compare=True, hash=None, metadata=None, kw_only=False):
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return Field(default, default_factory, init, repr, compare)


def _is_classvar(annotation):
    return annotation.startswith("ClassVar") or annotation.startswith("typing.ClassVar")


def _collect_fields(cls):
    fields = {}
    for base in reversed(cls.__mro__[1:]):
        for f in base.__dict__.get("__dataclass_fields__", {}).values():
            fields[f.name] = f
    annotations = cls.__dict__.get("__annotations__", {})
    for name, annotation in annotations.items():
        if _is_classvar(annotation):
            continue
        default = cls.__dict__.get(name, MISSING)
        if isinstance(default, Field):
            f = default
            if f.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, f.default)
        else:
            f = Field(default, MISSING, True, True, True)
        f.name = name
        f.type = annotation
        if isinstance(f.default, (list, dict, set)):
            raise ValueError(f"mutable default {type(f.default)} for field {name} is not allowed: use default_factory")
        fields[name] = f
    seen_default = False
    for f in fields.values():
        if not f.init:
            continue
        if f.default is not MISSING or f.default_factory is not MISSING:
            seen_default = True
        elif seen_default:
            raise TypeError(f"non-default argument '{f.name}' follows default argument")
    return fields


def _make_init(cls, fields, frozen):
    init_fields = [f for f in fields.values() if f.init]
    name = cls.__qualname__ + ".__init__"

    def __init__(self, *args, **kwargs):
        if len(args) > len(init_fields):
            raise TypeError(f"{name}() takes {len(init_fields) + 1} positional arguments but {len(args) + 1} were given")
        for key in kwargs:
            if key not in [f.name for f in init_fields]:
                raise TypeError(f"{name}() got an unexpected keyword argument '{key}'")
        missing = []
        for i, f in enumerate(init_fields):
            if i < len(args):
                if f.name in kwargs:
                    raise TypeError(f"{name}() got multiple values for argument '{f.name}'")
                value = args[i]
            elif f.name in kwargs:
                value = kwargs[f.name]
            elif f.default is not MISSING:
                value = f.default
            elif f.default_factory is not MISSING:
                value = f.default_factory()
            else:
                missing.append(f.name)
                continue
            object.__setattr__(self, f.name, value)
        if missing:
            names = " and ".join(", ".join(repr(m) for m in missing[:-1]).split(", ") + [repr(missing[-1])]) if len(missing) > 1 else repr(missing[0])
            plural = "argument" if len(missing) == 1 else "arguments"
            raise TypeError(f"{name}() missing {len(missing)} required positional {plural}: {names}")
        for f in fields.values():
            if not f.init:
                if f.default is not MISSING:
                    object.__setattr__(self, f.name, f.default)
                elif f.default_factory is not MISSING:
                    object.__setattr__(self, f.name, f.default_factory())
        if hasattr(self, "__post_init__"):
            self.__post_init__()

    return __init__


def _make_repr(fields):
    def __repr__(self):
        parts = [f"{f.name}={getattr(self, f.name)!r}" for f in fields.values() if f.repr]
        return type(self).__qualname__ + "(" + ", ".join(parts) + ")"
    return __repr__


def _compared(obj):
    return tuple(getattr(obj, f.name) for f in obj.__dataclass_fields__.values() if f.compare)


def _make_comparisons(cls, order):
    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return _compared(self) == _compared(other)
    cls.__eq__ = __eq__
    if order:
        def __lt__(self, other):
            if type(other) is not type(self):
                return NotImplemented
            return _compared(self) < _compared(other)
        def __le__(self, other):
            if type(other) is not type(self):
                return NotImplemented
            return _compared(self) <= _compared(other)
        def __gt__(self, other):
            if type(other) is not type(self):
                return NotImplemented
            return _compared(self) > _compared(other)
        def __ge__(self, other):
            if type(other) is not type(self):
                return NotImplemented
            return _compared(self) >= _compared(other)
        cls.__lt__ = __lt__
        cls.__le__ = __le__
        cls.__gt__ = __gt__
        cls.__ge__ = __ge__


def _frozen_setattr(self, name, value):
    raise FrozenInstanceError(f"cannot assign to field '{name}'")


def _frozen_delattr(self, name):
    raise FrozenInstanceError(f"cannot delete field '{name}'")


# Python's rule for a dataclass's __hash__ (unless the class defines one itself): a hash of
# the compared fields when it is frozen (or unsafe_hash asks), none (unhashable) when it only
# compares equal.
def _set_hash(cls, eq, frozen, unsafe_hash, explicit_hash):
    if unsafe_hash and explicit_hash:
        raise TypeError(f"Cannot overwrite attribute __hash__ in class {cls.__name__}")
    if unsafe_hash or (eq and frozen and not explicit_hash):
        def __hash__(self):
            return hash(_compared(self))
        cls.__hash__ = __hash__
    elif eq and not frozen and not explicit_hash:
        cls.__hash__ = None


def _process_class(cls, init, repr, eq, order, frozen, unsafe_hash):
    own_hash = cls.__dict__.get("__hash__", MISSING)
    explicit_hash = not (own_hash is MISSING or (own_hash is None and "__eq__" in cls.__dict__))
    fields = _collect_fields(cls)
    cls.__dataclass_fields__ = fields
    if init and "__init__" not in cls.__dict__:
        cls.__init__ = _make_init(cls, fields, frozen)
    if repr and "__repr__" not in cls.__dict__:
        cls.__repr__ = _make_repr(fields)
    if eq and "__eq__" not in cls.__dict__:
        _make_comparisons(cls, order)
    if frozen:
        cls.__setattr__ = _frozen_setattr
        cls.__delattr__ = _frozen_delattr
    _set_hash(cls, eq, frozen, unsafe_hash, explicit_hash)
    return cls


def dataclass(cls=None, *, init=True, repr=True, eq=True, order=False, unsafe_hash=False, frozen=False, kw_only=False, slots=False):
    def wrap(c):
        return _process_class(c, init, repr, eq, order, frozen, unsafe_hash)
    if cls is None:
        return wrap
    return wrap(cls)


def is_dataclass(obj):
    cls = obj if isinstance(obj, type) else type(obj)
    return hasattr(cls, "__dataclass_fields__")


def fields(obj):
    if not is_dataclass(obj):
        raise TypeError("must be called with a dataclass type or instance")
    return tuple(obj.__dataclass_fields__.values())


def _as_value(value, factory):
    if is_dataclass(value) and not isinstance(value, type):
        return factory([(f.name, _as_value(getattr(value, f.name), factory)) for f in fields(value)])
    if isinstance(value, list):
        return [_as_value(v, factory) for v in value]
    if isinstance(value, tuple):
        return tuple(_as_value(v, factory) for v in value)
    if isinstance(value, dict):
        return {_as_value(k, factory): _as_value(v, factory) for k, v in value.items()}
    return value


def asdict(obj):
    if not is_dataclass(obj) or isinstance(obj, type):
        raise TypeError("asdict() should be called on dataclass instances")
    return _as_value(obj, dict)


def astuple(obj):
    if not is_dataclass(obj) or isinstance(obj, type):
        raise TypeError("astuple() should be called on dataclass instances")
    return tuple(_as_value(getattr(obj, f.name), dict) for f in fields(obj))


def replace(obj, **changes):
    for f in fields(obj):
        if f.init and f.name not in changes:
            changes[f.name] = getattr(obj, f.name)
    return type(obj)(**changes)
