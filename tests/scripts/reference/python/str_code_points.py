# A str is a sequence of code points, as Python's: len, indexing, slicing, iteration, find and
# its kin, count, startswith with positions, widths and precisions in formatting, strip of
# given characters, and expandtabs, over text with two-, three- and four-byte characters.
s = "héllo wörld ☃ 𝄞!"
print(len(s), s[1], s[-2], s[-1], s[6:11], s[::-1], s[::3])
print(list("añb"), [c for c in "☃x"], "".join(reversed("äbc")), sorted("cäb"))
print(s.find("ö"), s.find("l", 3), s.rfind("l"), s.index("☃"), s.rindex("l", 0, 5), s.find("𝄞", 14), s.find("!", -1))
print(s.count("l"), s.count("l", 4), s.count(""), s.count("", 14))
print(s.startswith("wö", 6), s.endswith("☃", 0, 13), s.startswith(("x", "hé")), s.endswith("!", -1))
print(f"[{'é':>4}]", f"[{'☃':^5}]", f"[{'𝄞':*<3}]", "[{:.2}]".format("héllo"), "[%5s]" % "é", "[%-4s]" % "☃", "[%.1s]" % "ñx")
print("é".ljust(3, "-") + "|", "ü".rjust(3) + "|", "xéx".strip("x"), "ééaéé".strip("é"), "éa".lstrip("é"), "aé".rstrip("é"))
print("é\tb".expandtabs(4) + "|", repr("ä\tz".expandtabs(3)))
print(ord(s[1]), chr(233) == s[1], s[1:2] * 3, "ö" in s, s.split("ö"), s.partition("☃"))
print(str(len("日本語")), "日本語"[1], "日本語".find("語"), "日本語".replace("本", "-"))
import json
import re

m = re.search("ö+", "héllo wöörld")
print(m.start(), m.end(), m.span(), m.group(), re.findall(r"\w+", "héllo wörld ☃"), re.sub("l", "L", "héllo"))
print(re.split(r"\s", "a é b"), re.match(r".", "é").group(), re.fullmatch(r"[à-ü]+", "éèü") is not None, re.search("(?i)É", "xé").span())
print(json.dumps({"é": "☃"}), json.dumps("ü", ensure_ascii=False), json.loads('"\\u00e9x"')[0], len(json.loads('"\\ud834\\udd1e"')))
b = b"\xc3\xa9x\xff AbC"  # bytes keep counting bytes
print(b.find(b"x"), b.upper(), b.ljust(10, b"-"), b.strip(b"\xc3"), b"\xe9".isalpha(), b.count(b"\xa9"), b.startswith(b"x", 2), len(b), b[1])
