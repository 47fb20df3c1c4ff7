# typing for Fusescope scripts: annotations are accepted and never checked, so every name
# here only has to exist and to be subscriptable (Optional[int], Dict[str, Tensor]).


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
NamedTuple = _SpecialForm("NamedTuple")
TYPE_CHECKING = False


def TypeVar(name, *constraints, **options):
    return _SpecialForm(name)


def cast(typ, value):
    return value


def overload(fn):
    return fn


def final(fn):
    return fn
