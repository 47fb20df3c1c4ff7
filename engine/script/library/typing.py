# typing for Fusescope scripts: annotations are accepted and never checked, so every name
# here only has to exist and to be subscriptable (Optional[int], Dict[str, Tensor]).
from collections import namedtuple as _namedtuple


class _SpecialForm:
    def __init__(self, name):
        self._name = name

    def __getitem__(self, params):
        return self

    def __call__(self, *args, **kwargs):
        return args[0] if args else None

    def __repr__(self):
        return "typing." + self._name


Any = _SpecialForm("Any")
Optional = _SpecialForm("Optional")
Union = _SpecialForm("Union")
List = _SpecialForm("List")
Dict = _SpecialForm("Dict")
Tuple = _SpecialForm("Tuple")
Set = _SpecialForm("Set")
FrozenSet = _SpecialForm("FrozenSet")
Type = _SpecialForm("Type")
Callable = _SpecialForm("Callable")
Iterable = _SpecialForm("Iterable")
Iterator = _SpecialForm("Iterator")
Sequence = _SpecialForm("Sequence")
Mapping = _SpecialForm("Mapping")
ClassVar = _SpecialForm("ClassVar")
Final = _SpecialForm("Final")
Literal = _SpecialForm("Literal")


class NamedTuple:
    """typing.NamedTuple: `class P(NamedTuple): x: int; y: float = 0.5` (fields from the class's
    annotations, defaults from their values, the body's own methods kept) or
    `NamedTuple('P', [('x', int)])`, made as collections.namedtuple makes its classes (whose
    instances are not tuple instances here: scripts cannot subclass builtin types)."""

    def __new__(cls, *args, **kwargs):
        if cls is NamedTuple:  # the functional form
            fields = args[1] if len(args) > 1 else list(kwargs.items())
            return _namedtuple(args[0], [name for name, _ in fields])
        return object.__new__(cls)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        fields = list(cls.__dict__.get("__annotations__", {}))
        defaults = []
        for index, name in enumerate(fields):
            if name in cls.__dict__:
                defaults.append(cls.__dict__[name])
                delattr(cls, name)  # an instance's field reads its value, not the default
            elif defaults:
                raise TypeError(f"Non-default namedtuple field {name} cannot follow default field"
                                f"{'s' if len(defaults) > 1 else ''} {', '.join(fields[index - len(defaults):index])}")
        made = _namedtuple(cls.__name__, fields, defaults=defaults)
        for name, value in made.__dict__.items():
            if name not in cls.__dict__ and (not name.startswith("__") or callable(value)):
                setattr(cls, name, value)


TYPE_CHECKING = False


def TypeVar(name, *constraints, **options):
    return _SpecialForm(name)


def cast(typ, value):
    return value


def overload(fn):
    return fn


def final(fn):
    return fn

