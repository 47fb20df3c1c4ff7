# ast.literal_eval: numbers (signed), strings, True/False/None, tuples, lists, dicts, sets and
# set(), nested; what minGPT's CfgNode.merge_from_args does with it (a plain word is a
# ValueError, kept as a str); and the errors for names, calls, operators and bad syntax.
from ast import literal_eval

for text in ["...", "3", "-2", "+4.5", "1e-3", "'text'", '"two" "parts"', "True", "None", "(1,)", "()", "[1, [2, (3, 4)]]",
             "{'a': 1, 'b': [None, False]}", "{3, 1, 2}", "set()", "  [1, 2]", "{}"]:
    value = literal_eval(text)
    print(repr(text), "->", repr(value), type(value).__name__)
for arg in ["--model.n_layer=10", "--trainer.learning_rate=3e-4", "--model.pdrop=None"]:
    key, val = arg.split("=")
    try:
        val = literal_eval(val)
    except ValueError:
        pass
    print(key, repr(val))
for text in ["hello", "print(1)", "1 + 2", "-x", "{**a}", "[1, hello]", "not True"]:
    try:
        literal_eval(text)
    except ValueError as e:
        print(repr(text), "ValueError:", str(e).split(":")[0])
for text in ["1 2", "x = 1", "[1,"]:
    try:
        literal_eval(text)
    except SyntaxError:
        print(repr(text), "SyntaxError")
