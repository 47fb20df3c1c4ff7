# frozenset: construction, hashing (as dict keys and set elements, printed in CPython's
# order), equality with sets, operators and methods giving frozensets on the left, copy,
# and what it does not allow.
a = frozenset([3, 1, 2])
b = frozenset({2, 3, 4})
print(a, b, frozenset(), frozenset("aab") == frozenset("ab"), len(a), 2 in a, a == {1, 2, 3}, {1, 2, 3} == a)
print(a | b, a & b, a - b, a ^ b, {1, 9} | a, type({1} | a).__name__, type(a | {1}).__name__)
print(a.union([7]), a.intersection(b, [3]), a.difference([1]), a.symmetric_difference([1, 5]), a.issubset(range(5)), a.isdisjoint([9]))
print(a.copy() is a, frozenset(a) is a, hash(a) == hash(frozenset([1, 2, 3])), hash(frozenset()), hash(frozenset([1, 2])))
groups = {frozenset([1, 2]): "pair", frozenset(): "none"}
print(groups[frozenset([2, 1])], groups[frozenset()], {frozenset([1]), frozenset([2]), frozenset([1, 2]), frozenset([3, 4, 5])})
print(sorted(a), isinstance(a, frozenset), isinstance(a, set), {1, 2} < a, a >= {1})
c = a
c |= {10}
print(c, a, c is a)
for make in (lambda: a.add(4), lambda: hash({1})):
    try:
        make()
    except (AttributeError, TypeError) as e:
        print(type(e).__name__, e)
