# collections.defaultdict and deque: missing keys made by the factory (not by get or in),
# printing, isinstance, default_factory; a deque's both ends, maxlen, rotate, indexing, errors.
import collections
from collections import defaultdict, deque

groups = defaultdict(list)
for word in ["apple", "avocado", "banana", "blueberry", "cherry"]:
    groups[word[0]].append(word)
print(groups, dict(groups), len(groups), "z" in groups, groups.get("z"), len(groups))
counts = defaultdict(int)
for c in "mississippi":
    counts[c] += 1
print(sorted(counts.items()), counts["q"], isinstance(counts, dict), isinstance(counts, defaultdict), counts.default_factory)
nested = defaultdict(lambda: defaultdict(float))
nested["a"]["b"] += 1.5
print(nested["a"]["b"], list(nested), defaultdict(None, {"k": 1}), defaultdict(list, x=[1]))
plain = defaultdict()
try:
    plain["missing"]
except KeyError as e:
    print("KeyError", e)
try:
    defaultdict(3)
except TypeError as e:
    print("TypeError", e)

d = deque([1, 2, 3])
d.append(4)
d.appendleft(0)
print(d, d.pop(), d.popleft(), d, len(d), d[0], d[-1], 2 in d, list(reversed(d)))
d.rotate(1)
print(d)
d.rotate(-2)
print(d)
d.extend([7, 8])
d.extendleft([9, 10])
print(d, d.count(7), d.index(7))
window = deque(maxlen=3)
for i in range(6):
    window.append(i)
print(window, window.maxlen, sum(window), deque("abc"), bool(deque()), deque([1]) == deque([1]))
history = deque([1, 2, 3], maxlen=2)
history.appendleft(0)
print(history, collections.deque is deque)
for make in (lambda: deque().pop(), lambda: deque().popleft(), lambda: deque([1])[5], lambda: deque([1]).remove(2)):
    try:
        make()
    except (IndexError, ValueError) as e:
        print(type(e).__name__, e)
xs = [3, 1, 3]
xs.remove(3)
print(xs)
try:
    xs.remove(7)
except ValueError as e:
    print("ValueError", e)
