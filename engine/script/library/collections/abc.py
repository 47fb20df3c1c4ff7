# collections.abc for Fusescope scripts: the container ABCs real code checks against, as
# CPython 3.11 defines them: a class counts when it defines the methods (__subclasshook__),
# and the builtin types are registered as CPython registers them. Their mixin methods are
# left out (Mapping.get, Sequence.index, ...): derive from the builtin types' behaviour here.
from abc import ABCMeta, abstractmethod

__all__ = ["Hashable", "Iterable", "Iterator", "Reversible", "Generator", "Sized", "Container", "Callable",
           "Collection", "Set", "MutableSet", "Mapping", "MutableMapping", "Sequence", "MutableSequence",
           "KeysView", "ItemsView", "ValuesView"]


def _defines(cls, *methods):
    mro = cls.__mro__
    for method in methods:
        for base in mro:
            if method in base.__dict__:
                if base.__dict__[method] is None:
                    return NotImplemented
                break
        else:
            if method != "__hash__":  # object defines __hash__
                return NotImplemented
    return True


def _hook(*methods):
    def __subclasshook__(cls, subclass):
        if cls is not _ABC_OWNERS.get(methods):
            return NotImplemented
        if hasattr(subclass, "__mro__"):
            return _defines(subclass, *methods)
        if methods == ("__hash__",):  # a builtin type: hashable but for the mutable containers
            return subclass not in _UNHASHABLE
        return NotImplemented
    return classmethod(__subclasshook__)


_ABC_OWNERS = {}
_UNHASHABLE = (list, dict, set, bytearray, type({}.keys()), type({}.items()))


def _one_trick(name, *methods):
    cls = ABCMeta(name, (), {"__slots__": (), "__subclasshook__": _hook(*methods)})
    _ABC_OWNERS[methods] = cls
    return cls


Hashable = _one_trick("Hashable", "__hash__")
Iterable = _one_trick("Iterable", "__iter__")
Sized = _one_trick("Sized", "__len__")
Container = _one_trick("Container", "__contains__")
Callable = _one_trick("Callable", "__call__")
Iterator = ABCMeta("Iterator", (Iterable,), {"__subclasshook__": _hook("__iter__", "__next__")})
_ABC_OWNERS[("__iter__", "__next__")] = Iterator
Reversible = ABCMeta("Reversible", (Iterable,), {"__subclasshook__": _hook("__reversed__", "__iter__")})
_ABC_OWNERS[("__reversed__", "__iter__")] = Reversible
Generator = ABCMeta("Generator", (Iterator,), {"__subclasshook__": _hook("__iter__", "__next__", "send", "throw", "close")})
_ABC_OWNERS[("__iter__", "__next__", "send", "throw", "close")] = Generator
Collection = ABCMeta("Collection", (Sized, Iterable, Container), {"__subclasshook__": _hook("__len__", "__iter__", "__contains__")})
_ABC_OWNERS[("__len__", "__iter__", "__contains__")] = Collection


class Set(Collection):
    __slots__ = ()


class MutableSet(Set):
    __slots__ = ()


class Mapping(Collection):
    __slots__ = ()


class MutableMapping(Mapping):
    __slots__ = ()


class Sequence(Reversible, Collection):
    __slots__ = ()


class MutableSequence(Sequence):
    __slots__ = ()


class MappingView(Sized):
    __slots__ = ()


class KeysView(MappingView, Set):
    __slots__ = ()


class ItemsView(MappingView, Set):
    __slots__ = ()


class ValuesView(MappingView, Collection):
    __slots__ = ()


for _type in (str, tuple, range):
    Sequence.register(_type)
MutableSequence.register(list)
MutableSet.register(set)
MutableMapping.register(dict)
for _type in (list, tuple, str, dict, set, range):
    Iterable.register(_type)
    Sized.register(_type)
    Container.register(_type)
for _type in (type(iter([])), type(iter(())), type(iter(range(0))), type(iter("")), type((x for x in ()))):
    Iterator.register(_type)
Generator.register(type((x for x in ())))
for _type in (type(len), type(_defines), type, type(lambda: 0)):
    Callable.register(_type)
KeysView.register(type({}.keys()))
ItemsView.register(type({}.items()))
ValuesView.register(type({}.values()))
