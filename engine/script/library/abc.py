# abc for Fusescope scripts: abstractmethod and ABC, whose subclasses cannot be instantiated
# while an abstract method is left unimplemented (CPython 3.11's TypeError). ABCMeta is not
# here: scripts cannot have metaclasses yet, so `class C(metaclass=ABCMeta)` is refused.


def abstractmethod(funcobj):
    funcobj.__isabstractmethod__ = True
    return funcobj


def _abstract_methods(cls):
    names = []
    for name in dir(cls):
        value = getattr(cls, name, None)
        if getattr(value, "__isabstractmethod__", False):
            names.append(name)
    return sorted(names)


class ABC:
    def __new__(cls, *args, **kwargs):
        abstract = _abstract_methods(cls)
        if abstract:
            plural = "s" if len(abstract) > 1 else ""
            raise TypeError(f"Can't instantiate abstract class {cls.__name__} with abstract method{plural} "
                            + ", ".join(abstract))
        return object.__new__(cls)
