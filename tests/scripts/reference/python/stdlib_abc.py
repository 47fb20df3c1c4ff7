# abc: abstractmethod as a marker (enforced only under ABC, as in CPython), ABC subclasses
# refused while an abstract method is unimplemented (one or several, sorted), implemented in a
# subclass or a grandchild, with __init__ arguments passed through, and super() to the
# abstract method's body; an nn.Module base with an abstract forward.
from abc import ABC, abstractmethod


class Shape(ABC):
    @abstractmethod
    def area(self):
        return "no area"

    @abstractmethod
    def name(self):
        pass

    def describe(self):
        return f"{self.name()} of area {self.area()}"


class Square(Shape):
    def __init__(self, side):
        self.side = side

    def area(self):
        return self.side ** 2


class NamedSquare(Square):
    def name(self):
        return "square"

    def area(self):
        return super().area() + 0


class Marked:  # abstractmethod outside ABC marks but does not enforce
    @abstractmethod
    def run(self):
        return "ran"


for make in (lambda: Shape(), lambda: Square(2)):
    try:
        make()
    except TypeError as e:
        print("TypeError:", e)
square = NamedSquare(3)
print(square.describe(), isinstance(square, Shape), isinstance(square, ABC), Marked().run())
print(Shape.area.__isabstractmethod__, getattr(NamedSquare.area, "__isabstractmethod__", False))

# A module base class with an abstract forward, as model zoos write them.
import torch
import torch.nn as nn


class Base(nn.Module, ABC):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2)

    @abstractmethod
    def forward(self, x):
        pass


class Impl(Base):
    def forward(self, x):
        return self.lin(x) * 0 + 1


try:
    Base()
except TypeError as e:
    print("TypeError:", e)
model = Impl()
print(model(torch.ones(1, 2)), len(list(model.parameters())))
