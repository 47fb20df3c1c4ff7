#!/usr/bin/env python3
"""Small PyTorch programs over the axes Fusescope's wrong results lived on: sizes that change
across recompiles (automatic dynamic and dynamic=True), inputs that are overlapping views of
one tensor changed in place, zero-size dims, integer dtypes and negative powers, Python
scalars, NaN and infinity, and views of views.

Each program compiles one function and calls it with inputs built from exact arithmetic, then
prints, per call, whether the compiled result equals eager's (`same True`) and the result
itself. A program is valid PyTorch: Fusescope's output under every backend, and real
PyTorch's, must be the same text (tests/differential/README.md).

    python3 program_generator.py SEED            # the program for SEED on stdout
"""
import random
import sys

FLOAT, INT = "torch.float32", "torch.int64"

# Unary ops by the dtypes they take: (format, dtypes).
UNARY = [
    ("-{0}", (FLOAT, INT)),
    ("{0}.abs()", (FLOAT, INT)),
    ("torch.sign({0})", (FLOAT, INT)),
    ("{0}.relu()", (FLOAT, INT)),
    ("torch.exp({0})", (FLOAT,)),
    ("torch.sin({0})", (FLOAT,)),
    ("torch.tanh({0})", (FLOAT,)),
    ("torch.sqrt({0}.abs())", (FLOAT,)),
    ("torch.round({0}, decimals=1)", (FLOAT,)),
    ("torch.floor({0})", (FLOAT,)),
    ("{0}.clamp(-2.5, 3)", (FLOAT, INT)),
    ("torch.where({0} > 1, {0}, 0)", (FLOAT, INT)),
    ("{0}.isnan()", (FLOAT,)),
]
SCALARS = ["0.5", "-2.5", "3", "1e39", "0.1", "-0.0", "7", "1e-3"]
SCALAR_OPS = ["{0} * {1}", "{0} + {1}", "{0} - {1}", "{0} / {1}", "{1} - {0}", "{0} == {1}", "{0} > {1}"]
BINARY = ["{0} + {1}", "{0} * {1}", "{0} - {1}", "torch.maximum({0}, {1})", "torch.minimum({0}, {1})", "{0} >= {1}"]
REDUCTIONS = [("{0}.sum({d})", (FLOAT, INT)), ("{0}.amax({d})", (FLOAT, INT)), ("{0}.mean({d})", (FLOAT,)),
              ("{0}.prod({d})", (FLOAT, INT)), ("{0}.argmax({d})", (FLOAT, INT)), ("{0}.softmax({d})", (FLOAT,))]


class Value:
    """An expression with its dtype and shape; a dim is 'n' (the size that changes) or an int."""

    def __init__(self, text, dtype, shape):
        self.text, self.dtype, self.shape = text, dtype, shape


class Generator:
    def __init__(self, seed):
        self.seed = seed
        self.r = random.Random(seed)
        self.lines = []
        self.count = 0

    def fresh(self, value):
        name = f"t{self.count}"
        self.count += 1
        self.lines.append(f"    {name} = {value.text}")
        return Value(name, value.dtype, value.shape)

    def unary(self, v):
        ops = [op for op, dtypes in UNARY if v.dtype in dtypes]
        op = self.r.choice(ops)
        dtype = "torch.bool" if op.endswith("isnan()") else v.dtype
        out = Value(op.format(v.text), dtype, v.shape)
        return self.fresh(out) if dtype != "torch.bool" else self.fresh(Value(f"({out.text}).to({v.dtype})", v.dtype, v.shape))

    def scalar(self, v):
        op = self.r.choice(SCALAR_OPS)
        s = self.r.choice(SCALARS)
        if v.dtype == INT and s in ("1e39", "0.1", "1e-3") and op.startswith("{0} /"):
            s = "3"
        text = op.format(v.text, s)
        if "==" in op or ">" in op:
            return self.fresh(Value(f"({text}).to({v.dtype})", v.dtype, v.shape))
        dtype = FLOAT if v.dtype == FLOAT or "." in s or "e" in s or "/" in op else INT
        return self.fresh(Value(text, dtype, v.shape))

    def binary(self, a, b):
        if a.shape != b.shape:
            b = self.fresh(Value(f"{b.text}.sum()", b.dtype, ()))  # a 0-dim tensor broadcasts
        op = self.r.choice(BINARY)
        text = op.format(a.text, b.text)
        dtype = FLOAT if FLOAT in (a.dtype, b.dtype) else INT
        if ">=" in op:
            text = f"({text}).to({dtype})"
        return self.fresh(Value(text, dtype, a.shape))

    def reduce(self, v):
        if not v.shape:
            return v
        op, _ = self.r.choice([(op, d) for op, d in REDUCTIONS if v.dtype in d])
        d = self.r.randrange(len(v.shape))
        if "softmax" in op:
            return self.fresh(Value(op.format(v.text, d=d), v.dtype, v.shape))
        shape = v.shape[:d] + v.shape[d + 1:]
        dtype = INT if "argmax" in op else v.dtype
        if "sum" in op and self.r.random() < 0.3:
            return self.fresh(Value(f"{v.text}.sum({d}) * {v.text}.shape[{d}]", dtype, shape))  # a size used as a number
        return self.fresh(Value(op.format(v.text, d=d), dtype, shape))

    def view(self, v):
        """A view of a view: a transpose, a slice (from either end), a dim added in the middle, expanded and
        merged with its neighbour (repeat_kv), a flip of a reshape, pairs of elements."""
        if len(v.shape) < 2:
            return self.fresh(Value(f"{v.text}.unsqueeze(-1).expand(*{v.text}.shape, 2).reshape(-1)", v.dtype, v.shape))
        choice = self.r.randrange(5)
        if choice == 4:  # pairs: rows that depend on the size as s0 * cols // 2, which no symbol form holds
            return self.fresh(Value(f"{v.text}.reshape(-1, 2)", v.dtype, ("n", 2)))
        if choice == 0:
            return self.fresh(Value(f"{v.text}.t()", v.dtype, (v.shape[1], v.shape[0]) + v.shape[2:]))
        if choice == 1:  # from the start, or from the end of a dim whose size may change
            return self.fresh(Value(v.text + self.r.choice(["[:, 1:]", "[:, -2:]", "[:, :-1]"]), v.dtype, v.shape))
        if choice == 2:
            return self.fresh(Value(f"{v.text}[:, None, :].expand({v.text}.shape[0], 2, {v.text}.shape[1]).reshape({v.text}.shape[0] * 2, -1)",
                                    v.dtype, v.shape))
        return self.fresh(Value(f"{v.text}.reshape(-1, {v.text}.shape[-1]).flip(0)", v.dtype, v.shape))

    def matmul(self, v):
        if v.dtype != FLOAT or len(v.shape) != 2:
            return v
        return self.fresh(Value(f"{v.text} @ {v.text}.t()", FLOAT, (v.shape[0], v.shape[0])))

    def int_power(self, v):
        if v.dtype != INT:
            return v
        return self.fresh(Value(f"{v.text} ** ({v.text} % 3 - 2)", INT, v.shape))

    def function_body(self, params):
        values = list(params)
        for _ in range(self.r.randint(2, 6)):
            kind = self.r.choice(["unary", "unary", "scalar", "scalar", "binary", "reduce", "view", "matmul", "power"])
            v = self.r.choice(values)
            if kind == "unary":
                values.append(self.unary(v))
            elif kind == "scalar":
                values.append(self.scalar(v))
            elif kind == "binary":
                values.append(self.binary(v, self.r.choice(values)))
            elif kind == "reduce":
                values.append(self.reduce(v))
            elif kind == "view":
                values.append(self.view(v))
            elif kind == "matmul":
                values.append(self.matmul(v))
            else:
                values.append(self.int_power(v))
        return values[-1]

    def program(self):
        r = self.r
        dtype = r.choice([FLOAT, FLOAT, INT])
        cols = r.choice([3, 4, 0]) if r.random() < 0.15 else r.choice([3, 4])
        special = dtype == FLOAT and r.random() < 0.3
        aliased = r.random() < 0.25
        dynamic = r.choice(["None", "True", "False"])
        sizes = r.choice([[2, 4, 6], [3, 5, 7], [4, 4, 6], [0, 2, 2]] if cols else [[2, 4, 6]])
        a, b = Value("a", dtype, ("n", cols)), Value("b", dtype, ("n", cols))
        out = [f"# Generated by tests/differential/program_generator.py (seed {self.seed}).", "import torch", "", "", "def f(a, b):"]
        if aliased:  # a changed in place, b a view that overlaps it
            op = r.choice(["a.add_(1)", "a.mul_(2)", "a.sub_(3)", "a.clamp_(0, 5)"])
            self.lines.append(f"    {op}")
        result = self.function_body([a, b])
        out += self.lines
        out.append(f"    return {result.text}")
        out += ["", "",
                "def inputs(n):",
                f"    base = torch.arange(n * {cols} * 2, dtype=torch.float64).reshape(2 * n, {cols})",
                f"    base = ((base * {r.choice([1, 3, 7])}) % {r.choice([5, 11, 13])} - 4) / 2",
                ]
        if special:
            out.append("    base[::3] = torch.tensor([float('nan'), float('inf'), -float('inf'), 0.0] * 8)[:base[::3].shape[1]] if base.numel() else base[::3]")
        out.append(f"    base = base.to({dtype})")
        if aliased:
            out.append("    return base, base[:n], base[n // 2:n // 2 + n]")
        else:
            out.append("    return base, base[:n], base[n:]")
        out += ["", "",
                "def same(x, y):",
                "    if x.dtype.is_floating_point:",
                "        return x.shape == y.shape and torch.allclose(x, y, rtol=1e-5, atol=1e-5, equal_nan=True)",
                "    return torch.equal(x, y)",
                "",
                "",
                f"compiled = torch.compile(f, dynamic={dynamic})",
                f"for n in {sizes}:",
                "    base, a, b = inputs(n)",
                "    try:",
                "        expected = f(a, b)",
                "    except (RuntimeError, IndexError, ValueError) as e:",
                "        print(n, 'eager raises', type(e).__name__)",
                "        continue",
                "    expected_base = base.clone()",
                "    base, a, b = inputs(n)",
                "    got = compiled(a, b)",
                "    print(n, tuple(got.shape), got.dtype, 'same', same(got, expected), same(base, expected_base))",
                "    print(got)",
                ]
        return "\n".join(out) + "\n"


def generate(seed):
    return Generator(seed).program()


if __name__ == "__main__":
    sys.stdout.write(generate(int(sys.argv[1])))
