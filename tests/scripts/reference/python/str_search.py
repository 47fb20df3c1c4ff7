# str searches within a window: startswith/endswith (a tuple of affixes too), find, rfind, index,
# rindex and count with start and end (negative, None, past the end), as CPython adjusts them.
s = "abcabcab"
tests = [lambda: s.startswith("bc", 1), lambda: s.startswith(("x", "ab")), lambda: s.startswith("ab", 3, 4),
         lambda: s.endswith("ca", 0, 5), lambda: s.endswith(("b", "z")), lambda: s.count("ab", 1), lambda: s.count("ab", 1, 6),
         lambda: s.find("c", 3), lambda: s.find("c", 3, 5), lambda: s.rfind("a", 0, 5), lambda: s.index("b", 2),
         lambda: s.rindex("b", 0, 4), lambda: s.count(""), lambda: s.find("", 9), lambda: s.startswith("", 8), lambda: s.startswith("a", -2)]
for t in tests:
    try:
        print(t())
    except Exception as e:
        print(type(e).__name__, e)
print("abcabc".find("c", None, -2), "abcabc".count("", 2, 4), "abcabc".count("a", 5, 1), "abcabc".endswith(("bc",), -3, None))
for bad in (lambda: "abc".startswith(1), lambda: "abc".find("a", "1"), lambda: "abc".rindex("z")):
    try:
        bad()
    except (TypeError, ValueError) as e:
        print(type(e).__name__ + ":", e)
