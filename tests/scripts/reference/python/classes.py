class Animal:
    """An animal."""
    kind = "animal"
    count = 0

    def __init__(self, name, legs=4):
        self.name = name
        self.legs = legs
        Animal.count += 1

    def speak(self):
        return f"{self.name} makes a sound"

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, legs={self.legs})"

    @property
    def description(self):
        return f"{self.name} has {self.legs} legs"

    @classmethod
    def make(cls, name):
        return cls(name)

    @staticmethod
    def is_animal(x):
        return isinstance(x, Animal)


class Dog(Animal):
    kind = "dog"

    def speak(self):
        return super().speak() + " (woof)"


class Bird(Animal):
    def __init__(self, name):
        super().__init__(name, legs=2)

    def speak(self):
        return super(Bird, self).speak() + " (tweet)"


d = Dog("Rex")
b = Bird("Tweety")
print(d, b, [d, b])
print(d.speak(), b.speak(), sep=" | ")
print(d.description, b.description)
print(Dog.make("Fido"), Animal.count, Dog.count, d.kind, b.kind, Animal.kind)
print(Animal.is_animal(d), d.is_animal(3), isinstance(b, Dog), isinstance(b, (Dog, Bird)))
print(issubclass(Dog, Animal), issubclass(Animal, Dog), issubclass(Dog, object))
print(type(d).__name__, type(d) is Dog, Dog.__name__, Dog.__qualname__, Animal.__doc__)
print([c.__name__ for c in Dog.__mro__])
print(getattr(d, "name"), getattr(d, "missing", "default"), hasattr(d, "legs"), hasattr(d, "wings"))
setattr(d, "legs", 3)
print(d.legs, d.description)
del d.legs
print(hasattr(d, "legs"))
print(vars(b))
print(callable(d), callable(Dog), callable(d.speak), d.speak.__name__)
m = b.speak
print(m())
class A:
    def who(self): return "A"
class B(A):
    def who(self): return "B" + super().who()
class C(A):
    def who(self): return "C" + super().who()
class D(B, C):
    def who(self): return "D" + super().who()
print(D().who(), [k.__name__ for k in D.__mro__])
try:
    class E(A, B): pass
except TypeError as e:
    print("TypeError:", e)


# A function's name and qualname are attributes with setters: a string renames it everywhere.
def helper():
    pass


helper.__name__ = "renamed"
helper.__qualname__ = "Outer.renamed"
helper.tag = 3
print(helper.__name__, helper.__qualname__, helper.tag, repr(helper).startswith("<function Outer.renamed"))
for attempt in (lambda: setattr(helper, "__name__", 5), lambda: setattr(helper, "__qualname__", None)):
    try:
        attempt()
    except TypeError as e:
        print("TypeError:", e)
print(Dog.__name__, Dog.__bases__ == (Animal,), "__init__" in Dog.__dict__, d.__class__ is Dog, sorted(vars(d)) == sorted(d.__dict__))
