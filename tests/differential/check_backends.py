#!/usr/bin/env python3
"""Runs generated programs (program_generator.py) under Fusescope's eager, aot_eager and
inductor backends: each must exit 0, find every compiled result equal to eager's
("same True ..."), and print exactly the same text under all three. Part of `make test`.

    check_backends.py CLI FIRST_SEED COUNT [WORK_DIR]
"""
import pathlib
import subprocess
import sys
import tempfile

from program_generator import generate

BACKENDS = ["eager", "aot_eager", "inductor"]


def check(cli, seed, work):
    program = pathlib.Path(work) / f"generated_{seed}.py"
    program.write_text(generate(seed))
    outputs = {}
    for backend in BACKENDS:
        run = subprocess.run([cli, "run", str(program), "--backend", backend], capture_output=True, text=True, timeout=300)
        if run.returncode != 0:
            return f"--backend {backend} exited {run.returncode}: {run.stderr.strip()[-800:]}"
        for line in run.stdout.splitlines():
            if " same " in line and not line.endswith("same True True"):
                return f"--backend {backend}: compiled differs from eager: {line}"
        outputs[backend] = run.stdout
    if len(set(outputs.values())) != 1:
        return "the backends print different text:\n" + "\n".join(f"--- {b}\n{o}" for b, o in outputs.items())
    return None


def main():
    cli, first, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    work = sys.argv[4] if len(sys.argv) > 4 else tempfile.mkdtemp(prefix="fusescope-differential-")
    failed = 0
    for seed in range(first, first + count):
        problem = check(cli, seed, work)
        if problem:
            failed += 1
            print(f"seed {seed}: {problem}\n(the program: {work}/generated_{seed}.py)", flush=True)
    print(f"{count - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
