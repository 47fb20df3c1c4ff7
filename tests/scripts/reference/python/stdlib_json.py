# json: dumps with CPython's separators, indentation (ints and strings), sort_keys, key
# conversions, escapes (ensure_ascii on and off), float reprs, NaN and Infinity, default=,
# circular references; loads of every JSON value with its errors' line, column and char.
import json

config = {"model": {"n_layer": 2, "n_head": 4, "dropout": 0.1, "bias": True, "name": None},
          "sizes": [1, 2.5, -3e-05, 1e+20], "empty": [], "nothing": {}, "tuple": (1, "two")}
print(json.dumps(config))
print(json.dumps(config, indent=4))
print(json.dumps(config, indent="\t", sort_keys=True))
print(json.dumps([1, [2, [3, {}]]], indent=0))
print(json.dumps({"a": 1, "b": [1, 2]}, separators=(",", ":")))
print(json.dumps({1: "int", 2.5: "float", True: "bool", None: "none"}))
print(json.dumps("quote \" backslash \\ newline \n tab \t control \x01 caf\u00e9 snow \u2603 clef \U0001d11e"))
print(json.dumps("caf\u00e9 \u2603", ensure_ascii=False))
print(json.dumps([float("nan"), float("inf"), -float("inf"), 0.1, 1e16, 123456789012345678]))
print(json.dumps({"b": 1, "a": 2}, sort_keys=True), json.dumps({(1, 2): 3}, skipkeys=True))
print(json.dumps({"when": object()}, default=lambda o: "an object"))
for bad in (lambda: json.dumps(object()), lambda: json.dumps({(1, 2): 3}), lambda: json.dumps([float("nan")], allow_nan=False)):
    try:
        bad()
    except (TypeError, ValueError) as e:
        print(type(e).__name__ + ":", e)
loop = []
loop.append(loop)
try:
    json.dumps(loop)
except ValueError as e:
    print("ValueError:", e)
text = json.dumps(config, indent=2)
print(json.loads(text) == {**config, "tuple": [1, "two"]})
print(json.loads(' {"a": [1, 2.0, -3, 4e2, 0.5E-1, true, false, null], "b": "x\\ty\\u00e9\\ud834\\udd1e\\/"} '))
print(json.loads("NaN"), json.loads("-Infinity"), json.loads('"\\"quoted\\""'), json.loads("[]"), json.loads("{}"))
for doc in ("", "[1,]", '{"a" 1}', '{"a": 1,}', "[1 2]", '"abc', "01", "[1]\n x", '"bad \\q"', "tru", '{1: 2}', "-"):
    try:
        json.loads(doc)
    except json.JSONDecodeError as e:
        print(f"JSONDecodeError: {e} | {e.msg} {e.lineno} {e.colno} {e.pos} {isinstance(e, ValueError)}")
