# len(), truth and 'in' through each type's length, truth and contains slots.
class Box:
    def __init__(self, items):
        self.items = items
    def __len__(self):
        return len(self.items)
    def __iter__(self):
        return iter(self.items)
class Flag:
    def __bool__(self):
        return False
print(len([1, 2]), len((1,)), len("abc"), len({1: 2}), len({3}), len(range(2, 10, 3)), len(Box([1, 2, 3])), len({}.keys()))
print(bool([]), bool([0]), bool(()), bool(""), bool("a"), bool({}), bool(set()), bool(range(0)), bool(range(1)), bool(Box([])), bool(Flag()), bool(0.0), bool(None), bool(object()))
print(2 in Box([1, 2]), 5 in Box([1]), "b" in "abc", 1 in {1: 2}, 3 in {3}, 4 in range(5), 2 in (x for x in [1, 2]), 9 in map(abs, [-9]))
for attempt in [lambda: len(5), lambda: 1 in "abc", lambda: len(Flag()), lambda: 3 in 3]:
    try:
        print(attempt())
    except TypeError as e:
        print("TypeError:", e)
