# Metaclasses: class statements with metaclass=, inherited metaclasses, __new__/__init__/
# __call__ through super(), the metaclass's methods, properties and special methods on its
# classes, __instancecheck__/__subclasscheck__, type(name, bases, dict) and its errors.
class Registry(type):
    classes = []

    def __new__(mcs, name, bases, ns, **kwargs):
        ns["tag"] = name.lower()
        cls = super().__new__(mcs, name, bases, ns)
        mcs.classes.append(name)
        return cls

    def __init__(cls, name, bases, ns, **kwargs):
        super().__init__(name, bases, ns)
        cls.kwargs = kwargs

    def __call__(cls, *args, **kwargs):
        instance = super().__call__(*args, **kwargs)
        instance.made_by = "Registry"
        return instance

    def __iter__(cls):
        return iter(sorted(vars(cls)))

    def __len__(cls):
        return len(cls.tag)

    def __getitem__(cls, key):
        return f"{cls.__name__}[{key}]"

    def __contains__(cls, item):
        return item == cls.tag

    def __repr__(cls):
        return f"<registered {cls.__name__}>"

    @property
    def upper_tag(cls):
        return cls.tag.upper()

    def describe(cls):
        return f"{cls.__name__} via {type(cls).__name__}"


class Base(metaclass=Registry):
    def __init__(self, x=1):
        self.x = x


class Child(Base, flavour="sweet"):
    pass


c = Child(5)
print(Registry.classes, Base.tag, Child.tag, Child.kwargs, c.x, c.made_by)
print(type(Base).__name__, type(Child) is Registry, isinstance(Child, Registry), isinstance(Child, type), issubclass(Registry, type))
print(len(Child), Child["k"], "child" in Child, "x" in Child, repr(Child), str(Base), [Child], Child.upper_tag, Child.describe())
print([name for name in Child if not name.startswith("__")])
print(isinstance(c, Base), isinstance(c, Child), isinstance(3, Base))


class Meta(type):
    def __instancecheck__(cls, obj):
        return hasattr(obj, "quack")

    def __subclasscheck__(cls, sub):
        return hasattr(sub, "quack")


class Duck(metaclass=Meta):
    pass


class Mallard:
    quack = True


print(isinstance(Mallard(), Duck), isinstance(1, Duck), issubclass(Mallard, Duck), issubclass(int, Duck), isinstance(Duck(), Duck))
Point = type("Point", (), {"x": 1, "norm": lambda self: self.x * 2})
print(Point.__name__, Point().norm(), type(Point) is type)


class OtherMeta(type):
    pass


class Other(metaclass=OtherMeta):
    pass


for make in (lambda: type("Bad", (Base, Other), {}), lambda: type("X", (), {}, 1)):
    try:
        make()
    except TypeError as e:
        print("TypeError:", e)
try:
    class Mixed(Base, Other):
        pass
except TypeError as e:
    print("TypeError:", e)
