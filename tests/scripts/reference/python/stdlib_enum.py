# enum: members in definition order, aliases, auto, lookups by value and name, iteration,
# len, `in`, repr/str/format, IntEnum as its values, unique, the functional form, members with
# an __init__ taking tuple values, methods and properties on members, and the errors.
from enum import Enum, IntEnum, auto, unique, EnumMeta


class Color(Enum):
    RED = 1
    GREEN = 2
    BLUE = 3
    CRIMSON = 1

    def describe(self):
        return f"{self.name.lower()}={self.value}"

    @classmethod
    def default(cls):
        return cls.GREEN


print(list(Color), len(Color), Color.CRIMSON is Color.RED, Color(2), Color["BLUE"], Color.RED.describe(), Color.default())
print(repr(Color.RED), str(Color.GREEN), f"{Color.BLUE}", f"[{Color.RED:>12}]", repr(Color), type(Color) is EnumMeta)
print(Color.RED in Color, Color.RED == Color.RED, Color.RED == 1, Color.RED.name, Color.RED.value, {Color.RED: "r"}[Color.CRIMSON])
print(list(Color.__members__), isinstance(Color.RED, Color), isinstance(Color.RED, Enum), [c.name for c in reversed(Color)])


class Planet(Enum):
    MERCURY = (3.303e+23, 2.4397e6)
    EARTH = (5.976e+24, 6.37814e6)

    def __init__(self, mass, radius):
        self.mass = mass
        self.radius = radius

    @property
    def surface_gravity(self):
        return 6.673e-11 * self.mass / (self.radius * self.radius)


print(Planet.EARTH.mass, round(Planet.EARTH.surface_gravity, 4), Planet((3.303e+23, 2.4397e6)))


class Shape(IntEnum):
    CIRCLE = auto()
    SQUARE = auto()
    TRIANGLE = 10
    HEXAGON = auto()


print(list(Shape), Shape.SQUARE, repr(Shape.SQUARE), Shape.SQUARE + 1, Shape.SQUARE == 2, int(Shape.HEXAGON), sorted([Shape.TRIANGLE, Shape.CIRCLE]))
print([10, 20, 30][Shape.SQUARE], f"{Shape.CIRCLE:03d}", Shape(11), 3 * Shape.SQUARE, Shape.TRIANGLE > 5)
Animal = Enum("Animal", "ANT BEE CAT")
Mode = Enum("Mode", [("TRAIN", "train"), ("EVAL", "eval")])
print(list(Animal), Animal.CAT.value, Mode("eval"), Mode.TRAIN.value)
for make in (lambda: Color(7), lambda: Color["PINK"], lambda: 1 in Color, lambda: Shape("x")):
    try:
        make()
    except (ValueError, KeyError, TypeError) as e:
        print(type(e).__name__, e)
try:
    @unique
    class Dup(Enum):
        A = 1
        B = 1
except ValueError as e:
    print("ValueError", e)
try:
    class More(Color):
        PINK = 4
except TypeError as e:
    print("TypeError", e)
