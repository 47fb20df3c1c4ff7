# int(text, base) as CPython reads it: bases 2 to 36 and 0, prefixes, signs, blanks and
# underscores, and its errors.
for args in [("ff", 16), ("0xff", 16), ("0xff", 0), ("0b101", 0), ("  -42  ",), ("1_000",), ("0o17", 8), ("z", 36), ("+7",), ("10", 2), (b"12",), ("1__0",), ("0x", 16), ("12", 1), ("9", 8), ("010", 0), ("0", 0), ("00", 0), ("_1",), ("0x_ff", 16), ("9223372036854775807",), ("-9223372036854775808",)]:
    try:
        print(args, int(*args))
    except ValueError as e:
        print(args, "ValueError:", e)
try:
    int(5, 2)
except TypeError as e:
    print(e)
print(int(3.9), int(True), int(x="5") if False else int("5"))
print(divmod(7, 2), divmod(-7, 2), divmod(7.5, 2), divmod(-7.5, -2), divmod(7, -2.0))
try:
    divmod(1, 0)
except ZeroDivisionError as e:
    print("ZeroDivisionError:", e)
