# Dicts: insertion order through deletions and re-insertions, big dicts whose keys are
# deleted one by one, equal keys of different types, and keys Python refuses.

e = {"x": 1, "y": 2, "z": 3}
del e["y"]
print(e, list(e.items()), e["x"], e["z"])

d = {"a": 1, "b": 2, "c": 3, "d": 4}
del d["b"]
d["b"] = 5
d.pop("a")
d["e"] = 6
print(d, len(d), list(d), list(d.values()))
print("b" in d, "a" in d, d.get("a"), d.get("c"))

# Equal keys of different types share a slot, which keeps the first key.
n = {1: "int"}
n[1.0] = "float"
n[True] = "bool"
print(n)
del n[True]
print(n, 1 in n)

# A big dict: every other key deleted, then some put back at the end.
big = {}
for i in range(5000):
    big[i * 7 % 5003] = i
for k in list(big)[::2]:
    del big[k]
print(len(big), list(big)[:6], list(big)[-3:])
for k in range(0, 30, 3):
    big[k] = -k
print(len(big), list(big.items())[-6:])
print(sum(big.values()), min(big), max(big), big.get(7), big.get(14, "gone"))

# Strings deleted from the front, as a queue would.
words = {f"w{i}": i for i in range(3000)}
for i in range(2990):
    words.pop(f"w{i}")
print(words)
words.update({"w0": 0, "w2999": "last"})
print(words, len(words))

# Deleting down to nothing and filling again.
m = {k: k * k for k in range(100)}
for k in range(100):
    del m[k]
print(m, len(m), bool(m))
m.update(x=1, y=2)
m.setdefault("z", 3)
print(m, dict(m, y=20), dict([("p", 1), ("q", 2)], q=3))

# Tuples of hashables are keys; lists, dicts, sets and tuples holding them are not.
t = {(1, "a"): 1, (2, (3, 4)): 2}
print(t[(2, (3, 4))], (1, "a") in t)
for bad in ([1], {"k": 1}, {1}, (1, [2])):
    for action in ("set", "get", "in", "del", "literal", "method"):
        try:
            if action == "set":
                t[bad] = 1
            elif action == "get":
                t[bad]
            elif action == "in":
                bad in t
            elif action == "del":
                del t[bad]
            elif action == "literal":
                {bad: 1}
            else:
                t.get(bad)
            print(action, "accepted")
        except TypeError as e:
            print(action, "TypeError:", e)

class Point:
    def __init__(self, x):
        self.x = x
    def __eq__(self, other):
        return isinstance(other, Point) and self.x == other.x

try:
    {Point(1): 1}
except TypeError as e:
    print("TypeError:", e)
try:
    dict([(Point(1), 1)])
except TypeError as e:
    print("TypeError:", e)

# A loop over a dict or a set that changes its size fails at its next step; one that only
# replaces values, or breaks out right after the change, does not.
grow = {"a": 1}
try:
    for k in grow:
        grow[k + "x"] = 0
except RuntimeError as e:
    print("RuntimeError:", e, grow)
shrink = {1, 2, 3}
try:
    for v in shrink:
        shrink.discard(v)
except RuntimeError as e:
    print("RuntimeError:", e, shrink)
values = {"a": 1, "b": 2}
for k in values:
    values[k] += 10
for k in values:
    del values[k]
    break
print(values)
# The same through a view and in comprehensions, at every level.
viewed = {"a": 1, "b": 2}
for make in (lambda: [viewed.setdefault(k + "x", 0) for k in viewed.keys()],
             lambda: {k: viewed.pop(k) for k, _ in viewed.items()},
             lambda: [(i, v) for i in range(2) for v in viewed.values() if viewed.pop("ax", 1)],
             lambda: {shrink.add(v + 1) for v in shrink}):
    try:
        make()
    except RuntimeError as e:
        print("RuntimeError:", e, viewed, shrink)
print([viewed.update(b=k) for k in viewed], viewed, {v for v in shrink if shrink.discard(v + 9)})

# More keys Python refuses, and when: the value is evaluated first; slices and the set-like
# views are unhashable, a values view is not; a key's own __hash__ runs, errors and all.
from collections import OrderedDict

class BadHash:
    def __hash__(self):
        return "x"

for make in (lambda: OrderedDict([([1], 2)]), lambda: {}[1:2], lambda: {values.keys(): 1},
             lambda: {[]: print("value first")}, lambda: {BadHash(): 1}):
    try:
        make()
    except TypeError as e:
        print("TypeError:", e)
print(len({values.values(): 1}))

# An OrderedDict's loop checks only while it has a next key, with its own message.
ordered = OrderedDict(a=1)
print([ordered.setdefault(k + "x", 0) for k in ordered], ordered)
try:
    for k in ordered.keys():
        ordered.pop(k)
except RuntimeError as e:
    print("RuntimeError:", e, ordered)

# Keys and items views are sets to & | - ^, on either side of a set, another view or any
# iterable (ints only here: a str's hash changes from run to run, and with it a set's order).
# A values view is not; no view is a list.
nums = {1: 10, 2: 20, 3: 30, 40: 400}
other = {2: 20, 3: 33, 5: 50}
keys = nums.keys()
print(keys & {2, 5, 40}, {2, 5, 40, 7, 8, 9} & keys, keys & other.keys(), keys & [3, 3, 1])
print(keys | {7}, {7} | keys, keys - {1}, {1, 2, 99} - keys, keys ^ {1, 99}, keys - [1, 50])
print(nums.items() & other.items(), nums.items() - {(1, 10)}, {(9, 90)} | {1: 10, 2: 20}.items())
print(nums.items() & {(1, 10), (2, 22), 7})
wide = {i * 8: i for i in range(20)}
print(wide.keys() - {0}, wide.keys() | {3})
for misuse in (lambda: keys[0], lambda: nums.values() & {1}, lambda: keys + [1], lambda: nums.items()[0:1],
               lambda: keys.append(3), lambda: nums.items() & {([1], 2)}):
    try:
        print(misuse())
    except (TypeError, AttributeError) as e:
        print(type(e).__name__ + ":", e)
# Equality: the same keys with equal values, in any order (two OrderedDicts in the same order).
from collections import OrderedDict
print({"a": None} == {"a": None}, {"a": 1, "b": 2} == {"b": 2, "a": 1}, {"a": 1} != {"a": 2}, {"a": 1} == {"a": 1, "b": 2},
      {"a": [1, {"x": None}]} == {"a": [1, {"x": None}]}, {1: 2} == {1.0: 2}, {} == {}, {"a": 1} == [("a", 1)])
print(OrderedDict(a=1, b=2) == OrderedDict(b=2, a=1), OrderedDict(a=1, b=2) == {"b": 2, "a": 1},
      OrderedDict(a=1) == OrderedDict(a=1))
# The class of an OrderedDict or defaultdict makes another (copy.copy and deepcopy do so).
import copy
from collections import defaultdict
ordered = OrderedDict(b=1, a=2)
grouped = defaultdict(list, k=[1])
print(type(ordered)(), type(ordered)(x=1), type(grouped)(int), copy.copy(ordered), copy.copy(grouped), copy.deepcopy(grouped), copy.deepcopy(ordered))
