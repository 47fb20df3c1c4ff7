# In-place and unary operators through each type's inplace and unary slots (__iadd__ before __add__).
class Acc:
    def __init__(self):
        self.items = []
    def __iadd__(self, x):
        self.items.append(x)
        return self
    def __add__(self, x):
        return "not used"
    def __neg__(self):
        return "negated"
class Plain:
    def __init__(self, v):
        self.v = v
    def __add__(self, x):
        return Plain(self.v + x)
    def __isub__(self, x):
        return NotImplemented
    def __sub__(self, x):
        return Plain(self.v - x)
a = Acc()
b = a
a += 1
a += 2
print(a is b, a.items, -a)
p = Plain(1)
q = p
p += 5
p -= 2
print(p.v, q.v, p is q)
l = [1]
m = l
l += (2, 3)
s = {1}
t = s
s |= {2}
s -= {1}
print(l, m is l, s, t is s, -5, +True, ~7, -2.5, +1.5)
for attempt in [lambda: ~1.5, lambda: -"a", lambda: +None, lambda: ~Plain(1)]:
    try:
        print(attempt())
    except TypeError as e:
        print("TypeError:", e)
x = 5
x **= 2
x //= 3
print(x)
