#!/usr/bin/env python3
"""The OpInfo conformance test (ctest OpInfoConformance): runs tests/opinfo/conformance.py
under fusescope-cli and fails when a sample gives a wrong value, the run crashes, or
docs/ops.md is not what the run writes. With --write it updates docs/ops.md instead
(`make ops-doc`), unless a sample is wrong.

    check_conformance.py FUSESCOPE_CLI [--write]
"""
import difflib
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "ops.md"


def main():
    cli, write = sys.argv[1], "--write" in sys.argv[2:]
    # Outputs a kernel must write in full start as NaN or the largest integer, so that an element left unwritten is a wrong value.
    env = {**os.environ, "FUSESCOPE_FILL_UNINITIALIZED_MEMORY": "1"}
    run = subprocess.run([cli, "run", str(ROOT / "tests" / "opinfo" / "conformance.py")], capture_output=True, text=True, cwd=ROOT, env=env)
    if run.returncode not in (0, 1):  # 1: wrong values, listed in the document
        ran = [line for line in run.stderr.splitlines() if line.startswith("running ")]
        where = ran[-1][len("running "):] if ran else "before the first op"
        print(f"conformance.py ended with status {run.returncode} while running {where}:\n{run.stderr[-3000:]}")
        return 1
    if run.returncode == 1:
        wrong = [line for line in run.stdout.splitlines() if line.startswith("  - ")]
        print("samples with values that differ from PyTorch's:\n" + "\n".join(wrong))
        return 1
    if write:
        DOC.write_text(run.stdout)
        print(f"wrote {DOC.relative_to(ROOT)}")
        return 0
    if DOC.read_text() != run.stdout:
        diff = difflib.unified_diff(DOC.read_text().splitlines(), run.stdout.splitlines(), "docs/ops.md", "what the suite writes", lineterm="")
        print("docs/ops.md is not what the suite writes (update it with `make ops-doc`):")
        print("\n".join(list(diff)[:80]))
        return 1
    print(run.stdout[run.stdout.index("## Totals"):run.stdout.index("## Per op")].strip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
