# printf-style formatting with %, as model files use it in messages and logs.
print("%s and %r" % ("text", "text"))
print("%d %i %u" % (42, -7, 3))
print("%5d|%-5d|%05d|%+d|% d" % (42, 42, 42, 42, 42))
print("%.3d|%8.3d|%x|%X|%#x|%#o|%o" % (7, 7, 255, 255, 255, 8, 8))
print("%f|%.2f|%10.4f|%-10.1f|%+.3e|%E|%g|%G" % (3.14159, 2.5, 1 / 3, 2.25, 12345.678, 0.5, 1e-5, 1e20))
print("%08.3f|%F|%.0f|%#.0f|%#.0e" % (-3.14159, float("inf"), 2.5, 3.0, 3.0), f"{3.0:#.0f}")
print("%d %f %s" % (True, 1, False))
print("%d" % 3.99, "%d" % -3.99, "%x" % 255)
print("%(name)s is %(age)d years" % {"name": "Ada", "age": 36})
print("%s" % [1, 2], "%s" % (1,), "%s" % {"k": 1})
print("%r" % {"k": "v"}, "%a" % "x")
print("%c%c" % (72, "i"), "%5s|%-5s|%.2s" % ("ab", "ab", "abcdef"))
print("%*d|%-*d|%.*f" % (5, 1, 4, 2, 3, 3.14159))
print("100%% done, %s" % "ok", "no args here" % ())
print("%s" % None, "%s %s" % (1.5, 2 ** 40))
msg = "epoch %d: loss %.4f, acc %5.1f%%"
print(msg % (3, 0.123456, 97.25))


class Point:
    def __repr__(self):
        return "Point()"

    def __str__(self):
        return "(0, 0)"


print("%s %r" % (Point(), Point()))
for bad, args in [("%d", "x"), ("%s %s", (1,)), ("%s", (1, 2)), ("%z", 1), ("%", ()), ("%x", 1.5), ("%(k)s", 1)]:
    try:
        print(bad % args)
    except (TypeError, ValueError, KeyError) as e:
        print(type(e).__name__ + ":", e)
try:
    print("%(missing)s" % {"k": 1})
except KeyError as e:
    print("KeyError:", e)
