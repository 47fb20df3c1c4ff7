# The TypeErrors of a call that does not fit the def, in CPython's words: missing positional and
# keyword-only arguments (one, two, three), too many positional ones (with and without defaults).
def f(a, b, c=1, *, k, m=2):
    pass
for call in (lambda: f(), lambda: f(1), lambda: f(1, 2), lambda: f(b=1), lambda: f(1, 2, 3, 4)):
    try:
        call()
    except TypeError as e:
        print(e)
def g(x, y, z):
    pass
try:
    g()
except TypeError as e:
    print(e)
def h(a):
    pass
try:
    h(1, 2)
except TypeError as e:
    print(e)
