#!/usr/bin/env python3
"""The differential campaign against real PyTorch (not part of `make test`): generated
programs (program_generator.py; training_generator.py's with --training) run under real PyTorch and under Fusescope, whose stdout
must be the same text. A disagreement is saved as PROGRAM.py with PyTorch's and Fusescope's
output beside it, to become a regression test (tests/scripts/reference/compiled/).

    /tmp/torchenv/bin/python against_pytorch.py CLI [--first N] [--count 10000]
        [--torch-backend eager|aot_eager|inductor] [--backend inductor] [--out DIR] [--training]

PyTorch runs every program in one process (torch._dynamo.reset() between them; its
backend `eager` by default, the fastest whose compiled results are eager's); Fusescope runs
each in a process of its own under --backend.
"""
import argparse
import contextlib
import io
import os
import pathlib
import subprocess
import sys

os.environ.setdefault("TORCHINDUCTOR_FORCE_DISABLE_CACHES", "1")  # a cached graph can carry one program's aliasing into the next
import torch  # noqa: E402

import program_generator  # noqa: E402
import training_generator  # noqa: E402


def under_pytorch(source, backend):
    """What the program prints under real PyTorch, compiling with `backend`."""
    torch._dynamo.reset()
    compile_as_written = torch.compile

    def compile_with_backend(fn, **kwargs):
        return compile_as_written(fn, backend=backend, **kwargs)

    out = io.StringIO()
    torch.compile = compile_with_backend
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(source, "generated.py", "exec"), {"__name__": "__main__"})
    except Exception as e:  # the program raised: that is part of what it does
        out.write(f"raised {type(e).__name__}: {e}\n")
    finally:
        torch.compile = compile_as_written
    return out.getvalue()


def under_fusescope(cli, path, backend):
    try:
        run = subprocess.run([cli, "run", str(path), "--backend", backend], capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as e:  # a binary being rebuilt, a run that hangs
        return f"could not run: {e}\n"
    if run.returncode != 0:
        last = run.stderr.strip().splitlines()[-1] if run.stderr.strip() else ""
        return run.stdout + f"raised {last}\n"
    return run.stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("cli")
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--count", type=int, default=10000)
    parser.add_argument("--torch-backend", default="eager")
    parser.add_argument("--backend", default="inductor")
    parser.add_argument("--out", default="differential-disagreements")
    parser.add_argument("--training", action="store_true", help="training programs (training_generator.py)")
    args = parser.parse_args()
    generate = training_generator.generate if args.training else program_generator.generate
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    disagreements = 0
    for seed in range(args.first, args.first + args.count):
        source = generate(seed)
        path = out / f"seed_{seed}.py"
        path.write_text(source)
        expected = under_pytorch(source, args.torch_backend)
        got = under_fusescope(args.cli, path, args.backend)
        if expected == got:
            path.unlink()
            continue
        disagreements += 1
        path.with_suffix(".pytorch.out").write_text(expected)
        path.with_suffix(".fusescope.out").write_text(got)
        print(f"seed {seed}: disagrees ({path})", flush=True)
    print(f"{args.count - disagreements} agreed, {disagreements} disagreed (torch {torch.__version__}, "
          f"its backend {args.torch_backend}; Fusescope --backend {args.backend})")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
