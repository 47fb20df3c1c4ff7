# numbers and collections.abc: isinstance and issubclass against the ABCs for the builtin
# types (registered as CPython registers them), for script classes that define the methods
# (__subclasshook__) or register themselves, and for ABCMeta classes with abstract methods.
import numbers
import collections.abc
from collections.abc import Iterable, Mapping, Sequence, Callable, Hashable, Sized, Iterator
from abc import ABCMeta, abstractmethod

values = [1, 2.5, True, "s", None, [1], (1,), {"a": 1}, {1}, range(3), len, iter([1]), (x for x in [])]
for abc_class in (numbers.Number, numbers.Real, numbers.Integral, Iterable, Iterator, Sized, Sequence, Mapping, Hashable, Callable,
                  collections.abc.MutableSequence, collections.abc.Set, collections.abc.Generator):
    print(abc_class.__name__, [isinstance(v, abc_class) for v in values])
print(issubclass(bool, numbers.Integral), issubclass(float, numbers.Integral), issubclass(list, Sequence), issubclass(dict, Iterable))


class Bag:
    def __init__(self):
        self.items = [1, 2]

    def __iter__(self):
        return iter(self.items)

    def __len__(self):
        return len(self.items)


class Unhashable:
    def __eq__(self, other):
        return True


class Meters:
    pass


numbers.Real.register(Meters)
print(isinstance(Bag(), Iterable), isinstance(Bag(), Sized), isinstance(Bag(), Sequence), isinstance(Bag(), Callable), isinstance(Bag, Callable))
print(isinstance(Unhashable(), Hashable), isinstance(Meters(), numbers.Number), isinstance(Meters(), numbers.Integral), issubclass(Meters, numbers.Complex))


class Model(metaclass=ABCMeta):
    @abstractmethod
    def forward(self):
        pass

    @property
    @abstractmethod
    def size(self):
        pass


class Linear(Model):
    def forward(self):
        return "linear"

    @property
    def size(self):
        return 3


try:
    Model()
except TypeError as e:
    print("TypeError:", e)
print(Linear().forward(), Linear().size, sorted(Model.__abstractmethods__), len(Linear.__abstractmethods__), isinstance(Linear(), Model))
