# := as Python 3.8+ binds it: in conditions, calls, displays, subscripts, comprehensions
# (binding in the enclosing scope), generator expressions and lambdas' callers.
data = [3, 8, 1, 9, 4]
if (n := len(data)) > 3:
    print("long", n)
chunks = iter(data)
while (item := next(chunks, None)) is not None:
    print("item", item, end="; ")
print()
print([y for x in data if (y := x * 2) > 6], y)
print([last := x for x in range(3)], last)
total = 0
print(any((total := total + x) > 10 for x in data), total)
def f(xs):
    if any((hit := x) > 5 for x in xs):
        return hit
    return None
print(f(data), f([1, 2]))
print(max(m := [4, 2, 7]), m, data[(i := 1)], i, {(s := "k"): s}, {z := 5}, z)
def counter():
    calls = 0
    def bump():
        nonlocal calls
        return (calls := calls + 1)
    return bump
b = counter()
print(b(), b(), b())
print((a := 10, a + 1), [(w := 2), w * 3])
print((lambda: (q := 1) + q)())
