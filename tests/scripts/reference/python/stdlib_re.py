# re: CPython's API over the engine's regular expressions; stdout is CPython 3.11's.
import re

# Searching, matching, groups by number and by name.
m = re.search(r"(\d+)-(\d+)", "pages 10-42 and 7-9")
print(m, m.group(), m.group(1), m.group(2), m.groups(), m.span(), m.start(2), m.end(2), m.lastindex)
print(re.match(r"\d+", "pages 10"), re.match(r"[a-z]+", "pages 10"))
print(re.fullmatch(r"a|ab", "ab"), re.fullmatch(r"a+", "aab"))
m = re.match(r"(?P<key>\w+)=(?P<value>[^;]*)", "lr=0.01;wd=0")
print(m.group("key"), m["value"], m.groupdict(), m.lastgroup, m.re.groupindex)
print(re.search(r"(a)|(b)", "b").groups(), re.search(r"(a)|(b)", "b").groups("-"))
print(re.compile(r"(?P<x>a)(?P=x)").search("xaab").span())

# findall, finditer, empty matches as Python 3.7+ takes them.
print(re.findall(r"\w+", "the quick, brown fox"))
print(re.findall(r"(\w)(\d)", "a1 b2 c"), re.findall(r"(\w)\d", "a1 b2 c"))
print(re.findall(r"x*", "axb"), [m.span() for m in re.finditer(r"\b", "ab cd")])
print(re.sub(r"x*", "-", "abxd"), re.split(r"x*", "axbc"))

# sub with templates and functions, subn, count.
print(re.sub(r"(\w+)@(\w+)", r"\2 at \1", "joe@home, ann@work"))
print(re.sub(r"(?P<n>\d+)", r"<\g<n>>", "a1b22"), re.sub(r"(\d)", r"\g<1>0", "x1y2"))
print(re.sub(r"\d+", lambda m: str(int(m.group()) * 2), "3 apples, 12 pears"))
print(re.subn(r"a", "b", "banana"), re.sub(r"a", "b", "banana", count=2))
print(re.sub(r"\s+", " ", "  many   spaces\there \n"), repr(re.sub(r"$", "!", "line\n")))

# split with groups and maxsplit.
print(re.split(r"[,;]\s*", "a, b;c,  d"), re.split(r"([,;])", "a,b;c"), re.split(r",", "a,b,c,d", maxsplit=2))

# Flags: IGNORECASE, MULTILINE, DOTALL, VERBOSE, inline.
print(re.findall(r"^\w+", "one two\nthree four", re.M), re.findall(r"^\w+", "one two\nthree four"))
print(re.search(r"a.c", "a\nc"), re.search(r"a.c", "a\nc", re.S).span(), re.search(r"(?s)a.c", "a\nc").span())
print(re.findall(r"HELLO", "hello Hello", flags=re.I), re.search(r"(?i)world", "WORLD").group())
number = re.compile(r"""
    (?P<sign>[-+])?   # an optional sign
    (?P<digits>\d+)   # then digits
""", re.VERBOSE)
print(number.match("-42").groupdict(), number.flags == re.VERBOSE | re.UNICODE)
print(re.search(r"end$", "the end\n").span(), re.search(r"\Aab", "ab").span(), re.search(r"b\Z", "ab\n"))

# Patterns: repr, equality, escape, compile of a compiled pattern.
p = re.compile(r"\d+(\.\d*)?", re.I | re.M)
print(p, re.compile("a+"), p.pattern, p.groups, re.compile(p) is p, p == re.compile(r"\d+(\.\d*)?", re.I | re.M))
print(re.escape("a.b*c (1+2) [x]"), re.search(re.escape("1+1=2"), "is 1+1=2?").span())
print(p.search("v 3.14 x", 2).group(), p.match("v 3.14", 2).group(), p.search("3.14", 0, 1).group())

# Errors: bad patterns are re.error with Python's message and position.
for bad in [r"(?P<n>a)(?P<n>b)", r"(?P=missing)", "[abc"]:
    try:
        re.compile(bad)
    except re.error as e:
        print(type(e).__name__, e.msg, e.pos)
try:
    re.sub(r"(a)", r"\2", "a")
except re.error as e:
    print("error:", e)
