#!/usr/bin/env python3
"""Runs generated programs (program_generator.py, or training_generator.py with --training)
under Fusescope's eager, aot_eager and inductor backends: each must exit 0, find every
compiled result equal to eager's ("same True ..."), and print exactly the same text under all
three. Part of `make test`.

    check_backends.py CLI FIRST_SEED COUNT [WORK_DIR] [--training]
"""
import os
import pathlib
import subprocess
import sys
import tempfile

import program_generator
import training_generator

BACKENDS = ["eager", "aot_eager", "inductor"]


def check(cli, seed, work, generate):
    program = pathlib.Path(work) / f"generated_{seed}.py"
    program.write_text(generate(seed))
    outputs = {}
    for backend in BACKENDS:
        # Outputs a kernel must write in full start as NaN or the largest integer: an element left unwritten shows.
        env = {**os.environ, "FUSESCOPE_FILL_UNINITIALIZED_MEMORY": "1"}
        run = subprocess.run([cli, "run", str(program), "--backend", backend], capture_output=True, text=True, timeout=300, env=env)
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
    args = [a for a in sys.argv[1:] if a != "--training"]
    generate = training_generator.generate if "--training" in sys.argv else program_generator.generate
    cli, first, count = args[0], int(args[1]), int(args[2])
    work = args[3] if len(args) > 3 else tempfile.mkdtemp(prefix="fusescope-differential-")
    failed = 0
    for seed in range(first, first + count):
        problem = check(cli, seed, work, generate)
        if problem:
            failed += 1
            print(f"seed {seed}: {problem}\n(the program: {work}/generated_{seed}.py)", flush=True)
    print(f"{count - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
