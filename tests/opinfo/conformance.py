"""Runs PyTorch's OpInfo samples (samples.pt, written by export.py with real PyTorch) through
Fusescope and prints docs/ops.md: per op, how many samples give PyTorch's values eagerly,
compiled by inductor, and as gradients, with the totals.

    fusescope-cli run tests/opinfo/conformance.py > docs/ops.md     (make ops-doc)

Each sample ends as one of: pass; refused (an exception with a message: the op, or this use
of it, is not supported); wrong (a value, shape or dtype differs from PyTorch's: the run then
exits with status 1). An op whose function Fusescope lacks is missing. Compiled means
torch.compile(backend="inductor", fullgraph=True): a graph break is a refusal, not a pass.
A random op (OpInfo calls it under a fixed seed) is checked for shapes and dtypes only:
Fusescope's random generator does not draw PyTorch's numbers, so it never counts as passing.
OPINFO_OPS (comma-separated keys) limits the run to some ops; each op's name goes to stderr
before it runs, so a crash names its op.
"""
import os
import sys
import torch
import torch.nn.functional

HERE = os.path.dirname(__file__)
# torch.testing.assert_close's float32 tolerances, which OpInfo's tests use unless an op overrides them
RTOL = 1.3e-6
ATOL = 1e-5
KINDS = ("eager", "compiled", "gradient")
# Where PyTorch's own result is wrong (its gradcheck fails), so it cannot be the oracle:
# {entry: {kind: why}}; those samples are not run, and ops.md says why.
PYTORCH_WRONG = {
    # torch.autograd.gradcheck fails on it in PyTorch 2.15: input elements outside the
    # scattered view get no gradient there (AsStridedScatterBackward0); Fusescope gives them
    # the output's gradient, as central differences do
    "as_strided_scatter": {"gradient": "PyTorch's gradient fails its own gradcheck"},
}


def is_sequence(value):
    """A list, a tuple, or a torch.return_types result (values, indices)."""
    return isinstance(value, (list, tuple)) or type(value).__module__ == "torch.return_types"


class Missing(Exception):
    """Fusescope has no function of that name."""


def resolve(call, sample):
    """The callable and its positional arguments: "torch.Tensor.X" as the input's method,
    anything else by its dotted path from torch (Missing when Fusescope lacks it)."""
    parts = call.split(".")
    try:
        if parts[1] == "Tensor":
            return getattr(sample["input"], parts[2]), list(sample["args"])
        target = torch
        for part in parts[1:]:
            target = getattr(target, part)
    except AttributeError as error:
        raise Missing(str(error))
    return target, [sample["input"]] + list(sample["args"])


def run_eager(call, sample):
    fn, args = resolve(call, sample)
    return fn(*args, **sample["kwargs"])


def compiled_runner(call):
    def run(sample):
        fn, args = resolve(call, sample)
        return fn(*args, **sample["kwargs"])
    return torch.compile(run, backend="inductor", fullgraph=True)


def tensor_difference(actual, expected, rtol, atol, values):
    if tuple(actual.shape) != tuple(expected.shape):
        return f"shape {tuple(actual.shape)}, expected {tuple(expected.shape)}"
    if actual.dtype != expected.dtype:
        return f"dtype {actual.dtype}, expected {expected.dtype}"
    if not values or expected.numel() == 0:
        return None
    if not expected.is_floating_point():
        bad = (actual != expected).sum().item()
        return f"{bad} of {expected.numel()} elements differ" if bad else None
    a = actual.detach().double()
    e = expected.double()
    if not torch.equal(a != a, e != e):
        return "NaN at different places"
    ok = (a == e) | ((a - e).abs() <= atol + rtol * e.abs()) | (e != e)
    bad = (~ok).sum().item()
    if bad:
        worst = torch.where(ok, torch.zeros_like(e), (a - e).abs()).max().item()
        return f"{bad} of {e.numel()} elements differ (largest difference {worst:.3g})"
    return None


def difference(actual, expected, rtol=RTOL, atol=ATOL, values=True):
    """None when actual matches expected (tensors within tolerance, NaN where NaN; shapes and
    dtypes only when not values), else what differs."""
    if torch.is_tensor(expected):
        if not torch.is_tensor(actual):
            return f"expected a tensor, got {type(actual).__name__}"
        return tensor_difference(actual, expected, rtol, atol, values)
    if is_sequence(expected):
        if not is_sequence(actual) or len(actual) != len(expected):
            return f"expected a sequence of {len(expected)}, got {type(actual).__name__}"
        for i in range(len(expected)):
            why = difference(actual[i], expected[i], rtol, atol, values)
            if why:
                return f"[{i}]: {why}"
        return None
    if isinstance(expected, float) and isinstance(actual, (int, float)) and not isinstance(actual, bool):
        if not values or (expected != expected and actual != actual):
            return None
        return None if abs(actual - expected) <= atol + rtol * abs(expected) else f"{actual}, expected {expected}"
    if type(actual) is not type(expected) or (values and actual != expected):
        return f"{actual!r}, expected {expected!r}"
    return None


def weights_like(t):
    """The fixed weights w of sum(output * w), as export.py makes them."""
    n = t.numel()
    if n == 0:
        return torch.zeros_like(t)
    return ((-0.5) ** torch.arange(n, dtype=torch.float64)).to(t.dtype).reshape(t.shape)


def tensors_in(value):
    if torch.is_tensor(value):
        return [value]
    if is_sequence(value):
        return [t for v in value for t in tensors_in(v)]
    if isinstance(value, dict):
        return [t for v in value.values() for t in tensors_in(v)]
    return []


def gradients(call, sample):
    """d sum(output * w) / d each floating tensor argument (None where unused)."""
    leaves = [t for t in tensors_in([sample["input"], sample["args"], sample["kwargs"]]) if t.is_floating_point()]
    for t in leaves:
        t.requires_grad_(True)
    outs = [o for o in tensors_in(run_eager(call, sample)) if o.is_floating_point() and o.requires_grad]
    if not outs:
        return [None for t in leaves]
    total = sum((o * weights_like(o)).sum() for o in outs)
    return list(torch.autograd.grad(total, leaves, allow_unused=True))


def unused_as_none(actual, expected):
    """PyTorch's None for an input the output does not use: all zeros is taken as equal."""
    same = []
    for a, e in zip(actual, expected):
        if e is None and torch.is_tensor(a) and not a.any():
            a = None
        elif a is None and torch.is_tensor(e) and not e.any():
            a = torch.zeros_like(e)
        same.append(a)
    return same + list(actual[len(expected):])


def refusal(error):
    text = str(error).split("\n")[0]
    if len(text) > 150:
        text = text[:147] + "..."
    return f"{type(error).__name__}: {text}"


def largest_error(value, truth):
    """The largest |value - truth| over the floating elements (NaN where NaN is no error)."""
    v, t = value.detach().double(), truth.detach().double()
    if not torch.equal(v != v, t != t):
        return float("inf")
    gap = torch.where((v == t) | (t != t), torch.zeros_like(t), (v - t).abs())
    return gap.max().item() if gap.numel() else 0.0


def nearer_truth(actual, expected, truth, atol):
    """Whether Fusescope's result is at least as near PyTorch's float64 result as PyTorch's
    float32 result is, element tensor by element tensor: then a difference between the two
    float32 results is PyTorch's rounding, not a wrong value."""
    ours, theirs, truths = tensors_in(actual), tensors_in(expected), tensors_in(truth)
    if truth is None or not (len(ours) == len(theirs) == len(truths)):
        return False
    for a, e, t in zip(ours, theirs, truths):
        if a is None or e is None or t is None or tuple(t.shape) != tuple(e.shape):
            return False
        if e.is_floating_point() and largest_error(a, t) > max(largest_error(e, t), atol):
            return False
        if not e.is_floating_point() and not torch.equal(a, e):
            return False
    return True


def outcome(kind, produce, expected, random, truth=None):
    """(status, why) of one sample: pass, random (shapes and dtypes right), missing, refused, wrong."""
    try:
        actual = produce()
    except Missing as error:
        return ("missing", str(error))
    except Exception as error:  # noqa: BLE001: every refusal is reported with its words
        return ("refused", refusal(error))
    if kind == "gradient":
        actual = unused_as_none(actual, expected)
    why = difference(actual, expected, values=not random)
    if why and not random and difference(actual, expected, values=False) is None and nearer_truth(actual, expected, truth, ATOL):
        why = None
    if why:
        return ("wrong", why)
    return ("random" if random else "pass", None)


def run_op(key, entry, eager_samples, compiled_samples, gradient_samples):
    """{kind: [(status, why) per sample]} for one op; each kind runs on its own copy of the samples."""
    call = entry["call"]
    random = entry["random"]
    results = {"eager": [outcome("eager", lambda: run_eager(call, s), s["output"], random, s["output64"])
                         for s in eager_samples]}
    torch._dynamo.reset()  # each op compiles afresh: the recompile limit counts per op
    compiled = compiled_runner(call)
    results["compiled"] = [outcome("compiled", lambda: compiled(s), s["output"], random, s["output64"])
                           for s in compiled_samples]
    if entry["supports_autograd"] and not random and "gradient" not in PYTORCH_WRONG.get(key, {}):
        results["gradient"] = [outcome("gradient", lambda: gradients(call, s), s["grads"], False, s["grads64"])
                               for s in gradient_samples if s.get("grads") is not None]
    return results


def cell(results):
    if not results:
        return ""
    passed = sum(1 for status, why in results if status == "pass")
    if all(status == "random" for status, why in results):
        return f"random {len(results)}"
    return f"{passed}/{len(results)}"


def first_problem(results):
    """The first refusal or wrong value of an op, said once: what a reader of ops.md needs."""
    for kind in KINDS:
        for i, (status, why) in enumerate(results.get(kind, [])):
            if status in ("refused", "wrong"):
                return f"{kind} sample {i} {status}: {why}"
    return ""


def main():
    path = os.path.join(HERE, "samples.pt")
    data = torch.load(path)
    copies = {"compiled": torch.load(path)["ops"], "gradient": torch.load(path)["ops"]}
    wanted = os.environ.get("OPINFO_OPS", "")
    keys = [k for k in sorted(data["ops"]) if not wanted or k in wanted.split(",")]
    rows, wrong = [], []
    passing = {kind: 0 for kind in KINDS}
    missing = 0
    for key in keys:
        print(f"running {key}", file=sys.stderr, flush=True)
        entry = data["ops"][key]
        results = run_op(key, entry, entry["samples"], copies["compiled"][key]["samples"], copies["gradient"][key]["samples"])
        if any(status == "missing" for status, why in results["eager"]):
            missing += 1
            rows.append(f"| `{key}` | `{entry['call']}` | missing | | | |")
            continue
        for kind in KINDS:
            mine = results.get(kind, [])
            passing[kind] += bool(mine) and all(status == "pass" for status, why in mine)
            wrong += [f"{key}: {kind} sample {i}: {why}" for i, (status, why) in enumerate(mine) if status == "wrong"]
        cells = " | ".join(cell(results.get(kind, [])) or PYTORCH_WRONG.get(key, {}).get(kind, "") for kind in KINDS)
        rows.append(f"| `{key}` | `{entry['call']}` | {cells} | {first_problem(results).replace('|', '/')} |")
    print_document(data, keys, passing, missing, rows, wrong)
    return 1 if wrong else 0


def print_document(data, keys, passing, missing, rows, wrong):
    print("# Ops against PyTorch's OpInfo samples")
    print()
    for line in (
        "Written by `tests/opinfo/conformance.py` (`make ops-doc`; the `OpInfoConformance` test fails",
        "when this file is not what it writes) from the samples `tests/opinfo/export.py` took from",
        f"PyTorch {data['torch']}'s OpInfo database: float32 on the CPU, at most 4 samples an op",
        "(tests/opinfo/README.md). A cell is samples passing of samples run; an op passes when all",
        "its samples do. Eager: the op called as PyTorch's tests call it. Compiled: inside",
        "`torch.compile(backend=\"inductor\", fullgraph=True)` (a graph break is a refusal). Gradient:",
        "d sum(output * w) / d each floating input, w fixed. A value passes within torch.testing's",
        f"float32 tolerances (rtol {RTOL}, atol {ATOL}) of PyTorch's, or when it is at least as near",
        "PyTorch's float64 result as PyTorch's float32 result is (the difference is then PyTorch's",
        "rounding). Where PyTorch's own result is wrong (it fails its own gradcheck) the cell says so",
        "and those samples are not run. \"random\": an op drawing random numbers, checked for shapes",
        "and dtypes only (Fusescope's generator does not draw PyTorch's numbers), never counted as",
        "passing. \"missing\": Fusescope has no such function. The last column is the op's first",
        "refusal or wrong value.",
    ):
        print(line)
    print()
    print("## Totals")
    print()
    print(f"- OpInfo entries with float32 on the CPU: {data['float32_entries']}, "
          f"{data['float32_autograd_entries']} of them with gradients; with samples exported: {len(data['ops'])}"
          + (f"; run here: {len(keys)}" if len(keys) != len(data["ops"]) else ""))
    print(f"- Missing: {missing}")
    print(f"- Passing all samples eagerly: {passing['eager']}")
    print(f"- Passing all samples compiled: {passing['compiled']}")
    print(f"- Passing all gradient samples: {passing['gradient']}")
    print(f"- Wrong values: {len(wrong)}")
    for line in wrong:
        print(f"  - {line}")
    print()
    print("## Per op")
    print()
    print("| OpInfo entry | called as | eager | compiled | gradient | first problem |")
    print("|---|---|---|---|---|---|")
    for row in rows:
        print(row)


sys.exit(main())
