# copy (shallow and deep, with a memo that keeps shared objects shared), warnings (filters,
# catch_warnings with record=True; the printed warnings go to stderr), __new__ and
# __init_subclass__ with class keywords.
import copy
import warnings


class Point:
    def __init__(self, x, tags):
        self.x = x
        self.tags = tags


p = Point(1, ["a"])
shallow = copy.copy(p)
deep = copy.deepcopy(p)
shallow.tags.append("b")
print(p.tags, shallow.tags is p.tags, deep.tags, deep.tags is p.tags)
shared = [1, 2]
pair = copy.deepcopy({"one": shared, "two": shared, "t": (3, (4,)), "s": {5}})
print(pair, pair["one"] is pair["two"])
nested = [[1], [2]]
print(copy.copy(nested)[0] is nested[0], copy.deepcopy(nested)[0] is nested[0])
holder = Point(len, [Point, lambda v: v])  # functions and classes copy as themselves
held = copy.deepcopy(holder)
print(held.x is len, held.tags[0] is Point, held.tags[1] is holder.tags[1], held.tags is holder.tags)


class Hooked:
    def __init__(self):
        self.data = [1]

    def __copy__(self):
        print("__copy__ called")
        return Hooked()

    def __deepcopy__(self, memo):
        print("__deepcopy__ called with memo", type(memo).__name__)
        return "replaced"


print(type(copy.copy(Hooked())).__name__, copy.deepcopy([Hooked()]))


class Singleton:
    _instance = None

    def __new__(cls, *args, **kwargs):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __init__(self, value):
        self.value = value


a, b = Singleton(1), Singleton(2)
print(a is b, a.value)


class NotMine:
    def __new__(cls):
        return 42

    def __init__(self):
        print("never called")


print(NotMine())


class Plugin:
    registry = {}

    def __init_subclass__(cls, name=None, **kwargs):
        super().__init_subclass__(**kwargs)
        Plugin.registry[name or cls.__name__.lower()] = cls


class Reader(Plugin, name="read"):
    pass


class Writer(Plugin):
    pass


print(sorted(Plugin.registry), Plugin.registry["read"].__name__)
try:
    class Bad(Plugin, unknown=1):
        pass
except TypeError as e:
    print("TypeError:", e)


def noisy(n):
    warnings.warn(f"call {n}", stacklevel=2)
    return n


with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    noisy(1)
    noisy(2)
    warnings.warn("deprecated", DeprecationWarning)
    warnings.warn(FutureWarning("future"))
print([(str(w.message), w.category.__name__, w.lineno) for w in caught])
with warnings.catch_warnings(record=True) as caught:
    for _ in range(3):
        noisy(3)  # once per location under the default action
print(len(caught))
warnings.filterwarnings("error", category=RuntimeWarning)
try:
    warnings.warn("now an error", RuntimeWarning)
except RuntimeWarning as e:
    print("raised:", e)
warnings.resetwarnings()
warnings.simplefilter("ignore")
warnings.warn("not shown")
print(issubclass(FutureWarning, Warning), issubclass(UserWarning, Exception))
