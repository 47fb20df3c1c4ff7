#!/usr/bin/env python3
"""Exports PyTorch's OpInfo samples (torch.testing._internal.common_methods_invocations.op_db)
with PyTorch's results, for Fusescope's conformance suite (issue 64). Run with real PyTorch
outside `make test`:

    /tmp/torchenv/bin/python tests/opinfo/export.py

For every op_db entry that supports float32 on the CPU: up to SAMPLES_PER_OP of its float32
sample inputs (the smallest first, none over MAX_ELEMENTS elements in all), each with the
function to call (the public `torch.X`, `torch.nn.functional.X` or method `Tensor.X` that
gives OpInfo's result on the first sample; an op found by none is counted, not exported), its input,
args and kwargs, PyTorch's output, and, where the op supports autograd, the gradients of
sum(output * w) (w fixed: 1, -0.5, 0.25, ... over the output's elements) with respect to each
floating tensor argument; and the same in float64 ("output64", "grads64": the referee where
Fusescope's float32 result and PyTorch's differ). Every call gets copies of the arguments laid out as the sample's, so
an op that changes its input in place (resize_, zero_) leaves the saved input as OpInfo made
it. An op OpInfo calls under a fixed seed (its random ops) is marked "random": its values are
PyTorch's random generator's, which Fusescope does not reproduce. A sample whose arguments hold something torch.load's weights-only
reader cannot carry (a memory_format, a slice, a module, ...) is left out and counted.
Everything is written with torch.save to samples.pt: {"torch": version, "ops": {key: entry}},
and the samples holding tensors of dtypes Fusescope cannot load yet (complex, uint8, ...) to
samples_other_dtypes.pt, alike;
the key "name" or "name.variant_test_name"; skipped entries and samples are counted in
samples.summary.txt. Values are seeded per op (torch's, Python's and numpy's generators), so
a run writes the same samples.
"""
import collections
import io
import random
import pathlib
import sys
import types
import warnings

import torch
from torch.testing._internal.common_methods_invocations import op_db

SAMPLES_PER_OP = 4
MAX_ELEMENTS = 4096
here = pathlib.Path(__file__).resolve().parent
warnings.filterwarnings("ignore")

CARRIED = (type(None), bool, int, float, str, torch.Tensor, torch.dtype, torch.device, torch.Size)
# The dtypes Fusescope's torch.load reads today; samples with others go to samples_other_dtypes.pt.
LOADABLE = {torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int32, torch.bool}


def carried(value):
    if isinstance(value, (list, tuple)):
        return all(carried(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and carried(v) for k, v in value.items())
    return isinstance(value, CARRIED)


def tensors_in(value):
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in tensors_in(v)]
    if isinstance(value, dict):
        return [t for v in value.values() for t in tensors_in(v)]
    return []


def numpy_seed(seed):
    try:
        import numpy
    except ImportError:
        return
    numpy.random.seed(seed)


def public_functions(op):
    """The public callables op.name can stand for, by its dotted name: torch.X (torch.linalg.X,
    ...), torch.nn.functional.X for nn.functional.X, and the method Tensor.X."""
    found = []
    parts = op.name.split(".")
    for path in (["torch"] + parts, ["torch", "Tensor"] + parts):
        target = torch
        for part in path[1:]:
            target = getattr(target, part, None)
            if target is None:
                break
        if target is not None and callable(target):
            found.append((".".join(path), target))
    return found


def same(a, b):
    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
        if a.shape != b.shape or a.dtype != b.dtype:
            return False
        try:  # equal, NaN where NaN
            return bool(((a == b) | ((a != a) & (b != b))).all())
        except Exception:  # noqa: BLE001: a dtype or layout without comparisons here
            try:
                return torch.equal(a, b)
            except Exception:  # noqa: BLE001
                return False
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and (a == b or (a != a and b != b))


def call_path(op, sample):
    """How a script calls the op with OpInfo's arguments: the public function (torch.X,
    torch.nn.functional.X, Tensor.X) that gives op.op's result on this sample; None when
    none does (an OpInfo whose op wraps its arguments in a lambda of its own)."""
    try:
        expected = call(op.op, sample)
    except Exception:  # noqa: BLE001
        return None
    for path, function in public_functions(op):
        try:
            if seeded(op):
                torch.manual_seed(42)  # as OpInfo's wrapper_set_seed
            if same(call(function, sample), expected):
                return path
        except Exception:  # noqa: BLE001: not this calling convention
            continue
    return None


def plain(value):
    """Tuples of torch.return_types (max's (values, indices), ...) as plain tuples: what
    torch.load's weights-only reader takes."""
    if isinstance(value, tuple):
        return tuple(plain(v) for v in value)
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def replica(t):
    """A copy of t with its own storage laid out as t's: same strides and offset, so a
    non-contiguous or overlapping sample stays so."""
    copy = torch.empty(0, dtype=t.dtype)
    try:
        copy.set_(t.untyped_storage().clone(), t.storage_offset(), t.shape, t.stride())
    except RuntimeError:  # a tensor without a storage of its own to copy (a view of a wrapper)
        return t.detach().clone()
    return copy


def isolated(entry):
    """The entry with tensors of its own: OpInfo reuses tensors between samples (a batch_norm's
    running statistics), which torch.save would write once, so an op changing one in place
    would change the next sample's. The same tensor twice within the entry stays one."""
    memo = {}

    def copy(value):
        if isinstance(value, torch.Tensor):
            if id(value) not in memo:
                memo[id(value)] = replica(value)
            return memo[id(value)]
        if isinstance(value, (list, tuple)):
            return type(value)(copy(v) for v in value)
        if isinstance(value, dict):
            return {k: copy(v) for k, v in value.items()}
        return value
    return copy(entry)


def replicated(value):
    """The sample's arguments as copies an op may change in place (resize_, zero_) without
    changing what is saved as the sample's input."""
    if isinstance(value, torch.Tensor):
        return replica(value)
    if isinstance(value, (list, tuple)):
        return type(value)(replicated(v) for v in value)
    if isinstance(value, dict):
        return {k: replicated(v) for k, v in value.items()}
    return value


def call(function, sample):
    return function(replicated(sample.input), *replicated(list(sample.args)), **replicated(dict(sample.kwargs)))


def seeded(op):
    """Whether OpInfo calls the op under a fixed seed (its random ops: rand_like, dropout, ...)."""
    return "wrapper_set_seed" in getattr(getattr(op.op, "__code__", None), "co_names", ())


def cloned(value):
    if isinstance(value, torch.Tensor):
        return value.detach().clone()
    if isinstance(value, (list, tuple)):
        return type(value)(cloned(v) for v in value)
    if isinstance(value, dict):
        return {k: cloned(v) for k, v in value.items()}
    return value


def saveable(entry):
    """The entry as torch.save can write it: views kept (non-contiguous samples stay so), unless
    two of its tensors view one storage as different dtypes, which torch.save refuses; those
    entries are written with their tensors copied."""
    try:
        torch.save(entry, io.BytesIO())
        return entry
    except RuntimeError:
        return cloned(entry)


def attempt(compute):
    try:
        return compute()
    except Exception:  # noqa: BLE001: PyTorch refuses it (a float64 sample of a float32-only op)
        return None


def widened(sample):
    """The sample with its float32 tensors as float64: PyTorch's float64 result is the referee
    where Fusescope's float32 result and PyTorch's differ (which is nearer the truth)."""
    def wide(value):
        if isinstance(value, torch.Tensor):
            copy = replica(value)
            return copy.double() if copy.dtype == torch.float32 else copy
        if isinstance(value, (list, tuple)):
            return type(value)(wide(v) for v in value)
        if isinstance(value, dict):
            return {k: wide(v) for k, v in value.items()}
        return value
    return types.SimpleNamespace(input=wide(sample.input), args=wide(list(sample.args)), kwargs=wide(dict(sample.kwargs)))


def weights_like(t):
    n = t.numel()
    return ((-0.5) ** torch.arange(n, dtype=torch.float64)).to(t.dtype).reshape(t.shape) if n else torch.zeros_like(t)


def gradients(op, sample):
    """d sum(output * w) / d each floating tensor argument, or None when there is none."""
    leaves = [t for t in tensors_in([sample.input, sample.args, sample.kwargs]) if t.is_floating_point()]
    if not leaves:
        return None
    copies = {id(t): t.detach().clone().requires_grad_(True) for t in leaves}

    def swap(value):
        if isinstance(value, torch.Tensor):
            return copies[id(value)] if id(value) in copies else replica(value)
        if isinstance(value, (list, tuple)):
            return type(value)(swap(v) for v in value)
        if isinstance(value, dict):
            return {k: swap(v) for k, v in value.items()}
        return value

    out = op.op(swap(sample.input), *swap(list(sample.args)), **swap(sample.kwargs))
    outs = [o for o in tensors_in(out) if o.is_floating_point() and o.requires_grad]
    if not outs:
        return None
    total = sum((o * weights_like(o)).sum() for o in outs)
    grads = torch.autograd.grad(total, [copies[id(t)] for t in leaves], allow_unused=True)
    return [g.detach() if g is not None else None for g in grads]


def export_samples(op, skipped):
    """The op's kept samples: dicts of input, args, kwargs, output (and grads), each with its
    SampleInput as "sample"; None when OpInfo cannot make samples here."""
    torch.manual_seed(0)  # the samples' values, the same each run
    random.seed(0)
    numpy_seed(0)
    try:
        samples = list(op.sample_inputs("cpu", torch.float32, requires_grad=False))
    except Exception:  # noqa: BLE001: an OpInfo that cannot make samples here
        skipped["sample_inputs failed"] += 1
        return None
    samples.sort(key=lambda s: sum(t.numel() for t in tensors_in([s.input, s.args, s.kwargs])))
    kept = []
    for s in samples:
        if len(kept) == SAMPLES_PER_OP:
            break
        if sum(t.numel() for t in tensors_in([s.input, s.args, s.kwargs])) > MAX_ELEMENTS:
            skipped["sample over the size cap"] += 1
            continue
        if not carried([s.input, s.args, s.kwargs]) or any(t.layout != torch.strided for t in tensors_in([s.input, s.args, s.kwargs])):
            skipped["sample with arguments torch.load cannot carry"] += 1
            continue
        try:
            output = call(op.op, s)
            again = call(op.op, s)
        except Exception:  # noqa: BLE001
            skipped["sample that PyTorch itself refuses"] += 1
            continue
        if not same(output, again):
            skipped["sample whose result differs between two calls (random, or uninitialised memory)"] += 1
            continue
        if not carried(output):
            skipped["sample whose output torch.load cannot carry"] += 1
            continue
        entry = {"input": s.input, "args": plain(list(s.args)), "kwargs": plain(dict(s.kwargs)), "output": plain(output)}
        wide = widened(s)
        entry["output64"] = attempt(lambda: plain(call(op.op, wide)))
        if op.supports_autograd:
            entry["grads"] = attempt(lambda: gradients(op, s))
            entry["grads64"] = attempt(lambda: gradients(op, wide))
        kept.append(dict(saveable(isolated(entry)), sample=s))
    return kept


def strip(entry):
    return {k: v for k, v in entry.items() if k != "sample"}


def main():
    ops, other_ops, skipped = {}, {}, collections.Counter()
    entries = autograd_entries = 0
    for op in op_db:
        if torch.float32 not in op.supported_dtypes("cpu"):
            skipped["no float32 on the CPU"] += 1
            continue
        entries += 1
        autograd_entries += bool(op.supports_autograd)
        key = op.name + (f".{op.variant_test_name}" if op.variant_test_name else "")
        kept = export_samples(op, skipped)
        if kept is None:
            continue
        # Values that differ between two exports (uninitialised memory, a generator not
        # seeded here) would make the fixture differ each run: such an op is left out.
        if not same([strip(e) for e in kept], [strip(e) for e in export_samples(op, collections.Counter()) or []]):
            skipped["op whose samples differ between two exports"] += 1
            continue
        path = call_path(op, kept[0]["sample"]) if kept else None
        for entry in kept:
            del entry["sample"]
        if not kept:
            skipped["op with no sample kept"] += 1
        elif path is None:
            skipped["op called through a lambda of its own (no public function gives its result)"] += 1
        else:
            fits = [all(t.dtype in LOADABLE for t in tensors_in(e)) for e in kept]
            loadable = [e for e, ok in zip(kept, fits) if ok]
            others = [e for e, ok in zip(kept, fits) if not ok]
            if loadable:
                ops[key] = {"call": path, "supports_autograd": op.supports_autograd, "random": seeded(op), "samples": loadable}
            if others:
                other_ops[key] = {"call": path, "supports_autograd": op.supports_autograd, "random": seeded(op), "samples": others}
    # What the conformance suite counts against: every float32 CPU entry, exported or not.
    totals = {"float32_entries": entries, "float32_autograd_entries": autograd_entries}
    torch.save({"torch": str(torch.__version__), **totals, "ops": ops}, here / "samples.pt")
    torch.save({"torch": str(torch.__version__), "ops": other_ops}, here / "samples_other_dtypes.pt")
    lines = [f"torch {torch.__version__}: {len(ops)} ops, {sum(len(o['samples']) for o in ops.values())} samples in samples.pt; "
             f"{len(other_ops)} ops, {sum(len(o['samples']) for o in other_ops.values())} samples with other dtypes "
             "(complex, uint8, ...) in samples_other_dtypes.pt"]
    lines += [f"{count} {reason}" for reason, count in sorted(skipped.items())]
    (here / "samples.summary.txt").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    sys.exit(main())
