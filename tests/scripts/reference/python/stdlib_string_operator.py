# The small standard-library modules model files import: __future__, string, operator.
from __future__ import annotations, print_function, division
import __future__
import operator
import string
from operator import itemgetter, attrgetter, methodcaller

print(__future__.annotations, __future__.division.getMandatoryRelease())
print(len(__future__.all_feature_names), annotations.compiler_flag)

print(string.ascii_letters, string.digits, string.hexdigits, string.octdigits)
print(repr(string.punctuation), repr(string.whitespace), len(string.printable))
print(string.capwords("hello   wide world"), string.capwords("a-b-c", "-"))
print("hELLO world".capitalize(), "it's a dog-eat-dog x2y".title(), "MiXeD 9".swapcase(), "".capitalize())

print(operator.add(2, 3), operator.sub(2, 3), operator.mul(2, 3), operator.truediv(7, 2), operator.floordiv(7, 2))
print(operator.mod(7, 3), operator.pow(2, 10), operator.neg(4), operator.pos(-4), operator.abs(-4.5))
print(operator.and_(6, 3), operator.or_(6, 3), operator.xor(6, 3), operator.invert(6), operator.lshift(1, 4), operator.rshift(64, 2))
print(operator.lt(1, 2), operator.le(2, 2), operator.eq(1, 1.0), operator.ne(1, 2), operator.ge(1, 2), operator.gt(3, 2))
print(operator.not_([]), operator.truth([0]), operator.is_(None, None), operator.is_not(1, None), operator.index(True))
print(operator.concat([1], [2]), operator.contains("abc", "b"), operator.countOf([1, 2, 1, 1], 1))
xs = [1, 2, 3]
operator.setitem(xs, 0, 10)
operator.delitem(xs, 1)
print(xs, operator.getitem(xs, -1), operator.iadd([1], [2]), operator.imul(3, 4))

rows = [("b", 2, 9.5), ("a", 3, 1.5), ("c", 1, 4.0)]
print(sorted(rows, key=itemgetter(1)), itemgetter(0, 2)(rows[0]), itemgetter(slice(1, None))(rows[1]))


class Node:
    def __init__(self, name, child=None):
        self.name = name
        self.child = child

    def greet(self, greeting, punctuation="!"):
        return greeting + ", " + self.name + punctuation


tree = Node("root", Node("leaf"))
print(attrgetter("name")(tree), attrgetter("child.name", "name")(tree))
print(methodcaller("greet", "hi")(tree), methodcaller("greet", "hey", punctuation="?")(tree))
print(itemgetter(1), attrgetter("a", "b.c"))
print(sorted(["bb", "a", "ccc"], key=len), list(map(operator.mul, [1, 2], [3, 4])))
