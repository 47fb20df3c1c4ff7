# collections for Fusescope scripts: OrderedDict and defaultdict (dicts that print as CPython
# 3.11's do) come from the engine; namedtuple, Counter and deque are written here.
from _collections import OrderedDict, defaultdict


def namedtuple(typename, field_names, *, defaults=None, rename=False, module=None):
    if isinstance(field_names, str):
        field_names = field_names.replace(",", " ").split()
    fields = tuple(field_names)
    default_values = tuple(defaults) if defaults is not None else ()
    first_default = len(fields) - len(default_values)

    def __new__(cls, *args, **kwargs):
        return object.__new__(cls)

    def __init__(self, *args, **kwargs):
        # The field defaults are __new__'s, as CPython's: code may assign them afterwards
        # (Point.__new__.__defaults__ = (None,) * len(Point._fields)).
        field_defaults = __new__.__defaults__ or ()
        first_default = len(fields) - len(field_defaults)
        if len(args) > len(fields):
            raise TypeError(f"{typename}.__new__() takes {len(fields) + 1} positional arguments but {len(args) + 1} were given")
        values = list(args)
        for i in range(len(args), len(fields)):
            name = fields[i]
            if name in kwargs:
                values.append(kwargs.pop(name))
            elif i >= first_default:
                values.append(field_defaults[i - first_default])
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

    if default_values:
        __new__.__defaults__ = default_values
    namespace = {
        "__new__": __new__, "__init__": __init__, "__getattr__": __getattr__, "__setattr__": __setattr__, "__repr__": __repr__,
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


class deque:
    """CPython's deque on a list: appends and pops at both ends (popleft and appendleft move
    the items, O(n) where CPython's are O(1)), maxlen dropping from the other end, rotate."""

    def __init__(self, iterable=(), maxlen=None):
        if maxlen is not None and maxlen < 0:
            raise ValueError("maxlen must be non-negative")
        self._items = []
        self._maxlen = maxlen
        self.extend(iterable)

    @property
    def maxlen(self):
        return self._maxlen

    def append(self, x):
        self._items.append(x)
        if self._maxlen is not None and len(self._items) > self._maxlen:
            del self._items[0]

    def appendleft(self, x):
        self._items.insert(0, x)
        if self._maxlen is not None and len(self._items) > self._maxlen:
            self._items.pop()

    def extend(self, iterable):
        for x in list(iterable):
            self.append(x)

    def extendleft(self, iterable):
        for x in list(iterable):
            self.appendleft(x)

    def pop(self):
        if not self._items:
            raise IndexError("pop from an empty deque")
        return self._items.pop()

    def popleft(self):
        if not self._items:
            raise IndexError("pop from an empty deque")
        return self._items.pop(0)

    def rotate(self, n=1):
        if self._items:
            n %= len(self._items)
            self._items[:] = self._items[len(self._items) - n:] + self._items[:len(self._items) - n]

    def clear(self):
        self._items.clear()

    def count(self, x):
        return self._items.count(x)

    def index(self, x, *bounds):
        try:
            return self._items.index(x, *bounds)
        except ValueError:
            raise ValueError(f"{x!r} is not in deque") from None

    def insert(self, i, x):
        if self._maxlen is not None and len(self._items) >= self._maxlen:
            raise IndexError("deque already at its maximum size")
        self._items.insert(i, x)

    def remove(self, x):
        try:
            self._items.remove(x)
        except ValueError:
            raise ValueError(f"{x!r} is not in deque") from None

    def reverse(self):
        self._items.reverse()

    def copy(self):
        return deque(self._items, self._maxlen)

    __copy__ = copy

    def __len__(self):
        return len(self._items)

    def __bool__(self):
        return bool(self._items)

    def __iter__(self):
        return iter(list(self._items))

    def __reversed__(self):
        return iter(list(reversed(self._items)))

    def __contains__(self, x):
        return x in self._items

    def __getitem__(self, i):
        if isinstance(i, slice):
            raise TypeError("sequence index must be integer, not 'slice'")
        try:
            return self._items[i]
        except IndexError:
            raise IndexError("deque index out of range") from None

    def __setitem__(self, i, x):
        try:
            self._items[i] = x
        except IndexError:
            raise IndexError("deque index out of range") from None

    def __delitem__(self, i):
        try:
            del self._items[i]
        except IndexError:
            raise IndexError("deque index out of range") from None

    def __eq__(self, other):
        return isinstance(other, deque) and self._items == other._items

    def __add__(self, other):
        if not isinstance(other, deque):
            raise TypeError(f'can only concatenate deque (not "{type(other).__name__}") to deque')
        return deque(self._items + other._items, self._maxlen)

    def __iadd__(self, other):
        self.extend(other)
        return self

    def __repr__(self):
        if self._maxlen is None:
            return f"deque({self._items!r})"
        return f"deque({self._items!r}, maxlen={self._maxlen})"
