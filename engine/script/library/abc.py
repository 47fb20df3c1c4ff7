# abc for Fusescope scripts: ABCMeta as CPython 3.11's (abstract methods collected at class
# creation and enforced at instantiation with CPython's TypeError, register() for virtual
# subclasses, __subclasshook__, isinstance/issubclass through the registry), ABC and
# abstractmethod (also under property, classmethod, staticmethod). Written in Python where
# CPython's _abc is C; caches and weak references are left out.


def abstractmethod(funcobj):
    funcobj.__isabstractmethod__ = True
    return funcobj


def _is_abstract(value):
    if isinstance(value, property):
        return _is_abstract(value.fget)
    if isinstance(value, (classmethod, staticmethod)):
        return _is_abstract(value.__func__)
    return getattr(value, "__isabstractmethod__", False)


def _abstract_methods(cls, namespace, bases):
    abstracts = {name for name, value in namespace.items() if _is_abstract(value)}
    for base in bases:
        for name in getattr(base, "__abstractmethods__", ()):
            if _is_abstract(getattr(cls, name, None)):
                abstracts.add(name)
    return frozenset(abstracts)


class ABCMeta(type):
    def __new__(mcls, name, bases, namespace, **kwargs):
        cls = super().__new__(mcls, name, bases, namespace, **kwargs)
        cls.__abstractmethods__ = _abstract_methods(cls, namespace, bases)
        cls._abc_registry = []
        cls._abc_subclasses = []
        for base in bases:
            if isinstance(base, ABCMeta):
                base._abc_subclasses.append(cls)
        return cls

    def __call__(cls, *args, **kwargs):
        abstract = cls.__abstractmethods__
        if abstract:
            plural = "s" if len(abstract) > 1 else ""
            raise TypeError(f"Can't instantiate abstract class {cls.__name__} with abstract method{plural} "
                            + ", ".join(sorted(abstract)))
        return super().__call__(*args, **kwargs)

    def register(cls, subclass):
        if not isinstance(subclass, type):
            raise TypeError("Can only register classes")
        if issubclass(subclass, cls):
            return subclass
        if issubclass(cls, subclass):
            raise RuntimeError("Refusing to create an inheritance cycle")
        cls._abc_registry.append(subclass)
        return subclass

    def __instancecheck__(cls, instance):
        return cls.__subclasscheck__(type(instance))

    def __subclasscheck__(cls, subclass):
        if not isinstance(subclass, type):
            raise TypeError("issubclass() arg 1 must be a class")
        if cls in getattr(subclass, "__mro__", ()):
            return True
        hook = getattr(cls, "__subclasshook__", None)
        if hook is not None:
            answer = hook(subclass)
            if answer is not NotImplemented:
                return bool(answer)
        for registered in cls._abc_registry:
            if issubclass(subclass, registered):
                return True
        for derived in cls._abc_subclasses:
            if issubclass(subclass, derived):
                return True
        return False


class ABC(metaclass=ABCMeta):
    @classmethod
    def __subclasshook__(cls, subclass):
        return NotImplemented


def get_cache_token():
    return 0


def update_abstractmethods(cls):
    if hasattr(cls, "__abstractmethods__"):
        cls.__abstractmethods__ = _abstract_methods(cls, vars(cls), cls.__bases__)
    return cls
