# bytes and bytearray: literals, the constructors, indexing, slicing, the operators, the
# methods bytes shares with str, encode/decode with their errors, int.to_bytes/from_bytes.
b = b"abc\x00\xff'\n"
print(b, len(b), b[0], b[-1], b[1:3], list(b[:4]))
print(b"it's", b'say "hi"', b'both \' and "', rb"raw\x00", b"\u00e9", b"\101\777")
print(bytes(), bytes(3), bytes([65, 66, 67]), bytes(b"xy"), bytes("héllo", "utf-8"), bytes(range(3)))
print(bytearray(b"ab"), bytearray(2), bytearray("ab", encoding="ascii"))
print(b"ab" + b"cd", b"ab" * 3, 2 * b"x", b"a" in b"cat", 97 in b"cat", 120 in b"cat")
print(b"abc" == b"abc", b"abc" == "abc", b"abc" < b"abd", b"\xff" > b"a", b"" < b"a", sorted([b"b", b"a", b"\x80"]))
print(bytes(b"ab") == bytearray(b"ab"), hash(b"ab") == hash(b"ab"), {b"k": 1}[b"k"], len({b"a", b"a", b"b"}))
print(b"Hello World".upper(), b"Hello".lower(), b"  pad  ".strip(), b"a,b,,c".split(b","), b"a b  c".split())
print(b"abcabc".find(b"c"), b"abcabc".rfind(b"c"), b"abcabc".count(b"b"), b"abc".startswith(b"ab"), b"abc".endswith((b"x", b"c")))
print(b"abc".replace(b"b", b"XY"), b"a=b".partition(b"="), b"-".join([b"a", b"b", bytearray(b"c")]), b"12".isdigit(), b"ab".isalpha())
print(b"\x00\x0f\xff".hex(), b"\x01\x02".hex(":"), bytes.fromhex("de ad be ef"), bytearray.fromhex("0a0b"))
print("héllo €".encode(), "héllo".encode("latin-1"), "abc".encode("ascii"), "é€".encode("ascii", "replace"), "é€x".encode("ascii", "ignore"))
print(b"h\xc3\xa9llo".decode(), b"h\xe9".decode("latin-1"), b"a\xffb".decode("utf-8", "replace"), b"a\xffb".decode(errors="ignore"))
for bad in (b"\xff", b"ab\xe2\x82", b"\xe2\x28\xa1", b"\xe2\x82\x28", b"\xc3"):
    try:
        bad.decode()
    except UnicodeDecodeError as e:
        print("UnicodeDecodeError:", e)
for text, codec in (("é", "ascii"), ("aé€b", "ascii"), ("€", "latin-1")):
    try:
        text.encode(codec)
    except UnicodeEncodeError as e:
        print("UnicodeEncodeError:", e)
for make in (lambda: "x".encode("klingon"), lambda: bytes("x"), lambda: bytes([256]), lambda: bytearray([-1]), lambda: bytes(-1),
             lambda: bytes(1.5), lambda: b"a" + "b", lambda: b"abc"[5], lambda: bytearray(b"a")[3], lambda: b"abc".split("b"),
             lambda: bytes.fromhex("0g"), lambda: hash(bytearray(b"a")), lambda: b"a".nothing):
    try:
        make()
    except Exception as e:
        print(type(e).__name__ + ":", e)
a = bytearray(b"hello")
a[0] = 72
a.append(33)
a.extend(b"??")
a.extend([65])
a += b"!"
a[1:3] = b"EE"
print(a, a.pop(), a.pop(0), a, len(a), bytes(a), a.decode())
a[::2] = b"xxxx"
print(a, isinstance(a, bytearray), isinstance(b"", bytes), type(b"").__name__, type(a).__name__)
print((1024).to_bytes(2, "big"), (1024).to_bytes(4, byteorder="little"), (-2).to_bytes(2, "big", signed=True), (5).to_bytes())
print(int.from_bytes(b"\x04\x00", "big"), int.from_bytes(b"\x00\x04", "little"), int.from_bytes(b"\xff\xfe", "big", signed=True),
      int.from_bytes([1, 0], "big"), int.from_bytes(b"\x00" * 12 + b"\x01", "big"))
for make in (lambda: (256).to_bytes(1, "big"), lambda: (-1).to_bytes(1, "big"), lambda: (1).to_bytes(1, "middle")):
    try:
        make()
    except Exception as e:
        print(type(e).__name__ + ":", e)
print(f"{b'x'}", str(b"y"), repr(bytearray(b"z")), [b"a"], "%s" % b"q")
