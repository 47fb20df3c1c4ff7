# collections for Fusescope scripts: OrderedDict (a dict that prints as CPython 3.11's
# OrderedDict does) comes from the engine; namedtuple and Counter are written here.
from _collections import OrderedDict


def namedtuple(typename, field_names, *, defaults=None, rename=False, module=None):
    if isinstance(field_names, str):
        field_names = field_names.replace(",", " ").split()
    fields = tuple(field_names)
    default_values = tuple(defaults) if defaults is not None else ()
    first_default = len(fields) - len(default_values)

    def __init__(self, *args, **kwargs):
        if len(args) > len(fields):
            raise TypeError(f"{typename}.__new__() takes {len(fields) + 1} positional arguments but {len(args) + 1} were given")
        values = list(args)
        for i in range(len(args), len(fields)):
            name = fields[i]
            if name in kwargs:
                values.append(kwargs.pop(name))
            elif i >= first_default:
                values.append(default_values[i - first_default])
            else:
                raise TypeError(f"{typename}.__new__() missing 1 required positional argument: '{name}'")
        if kwargs:
            raise TypeError(f"{typename}.__new__() got an unexpected keyword argument '{list(kwargs)[0]}'")
        object.__setattr__(self, "_values", tuple(values))

    def __getattr__(self, name):
        if name in fields:
            return self._values[fields.index(name)]
        raise AttributeError(f"'{typename}' object has no attribute '{name}'")

    def __setattr__(self, name, value):
        raise AttributeError("can't set attribute")

    def __repr__(self):
        return typename + "(" + ", ".join(f"{n}={v!r}" for n, v in zip(fields, self._values)) + ")"

    def __getitem__(self, i):
        return self._values[i]

    def __len__(self):
        return len(fields)

    def __iter__(self):
        return iter(self._values)

    def __eq__(self, other):
        if hasattr(other, "_values"):
            return self._values == other._values
        return self._values == other

    def __hash__(self):
        return hash(self._values)

    def _asdict(self):
        return dict(zip(fields, self._values))

    def _replace(self, **changes):
        return cls(*[changes.pop(n, v) for n, v in zip(fields, self._values)])

    namespace = {
        "__init__": __init__, "__getattr__": __getattr__, "__setattr__": __setattr__, "__repr__": __repr__,
        "__getitem__": __getitem__, "__len__": __len__, "__iter__": __iter__, "__eq__": __eq__,
        "__hash__": __hash__, "_asdict": _asdict, "_replace": _replace, "_fields": fields,
        "_field_defaults": dict(zip(fields[first_default:], default_values)),
    }
    cls = type(typename, (), namespace)
    return cls


class Counter:
    def __init__(self, iterable=None):
        self._counts = {}
        if iterable is not None:
            self.update(iterable)

    def update(self, iterable):
        for x in iterable:
            self._counts[x] = self._counts.get(x, 0) + 1

    def __getitem__(self, key):
        return self._counts.get(key, 0)

    def __setitem__(self, key, value):
        self._counts[key] = value

    def __len__(self):
        return len(self._counts)

    def __iter__(self):
        return iter(self._counts)

    def __contains__(self, key):
        return key in self._counts

    def items(self):
        return self._counts.items()

    def keys(self):
        return self._counts.keys()

    def values(self):
        return self._counts.values()

    def most_common(self, n=None):
        ordered = sorted(self._counts.items(), key=lambda kv: kv[1], reverse=True)
        return ordered if n is None else ordered[:n]

    def __repr__(self):
        if not self._counts:
            return "Counter()"
        return "Counter({" + ", ".join(f"{k!r}: {v!r}" for k, v in self.most_common()) + "})"
