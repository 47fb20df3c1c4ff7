#!/usr/bin/env python3
"""Writes the expected stdout of every model under tests/real_models/ by running its driver
under real PyTorch:

    /tmp/torchenv/bin/python tests/real_models/regenerate.py [FOLDER...]   # all, or only those

Each FOLDER/main.py gets FOLDER/main.out; PRODUCED_BY records the Python and torch versions.
Not part of `make test`: tests/engine/real_models_test.cpp compares Fusescope's output with
these files.
"""
import os
import pathlib
import subprocess
import sys

import torch

here = pathlib.Path(__file__).resolve().parent
# Without Inductor's caches (a graph cached by another run can carry its input aliasing into
# this one) and without __pycache__ folders left beside the verbatim files.
env = dict(os.environ, TORCHINDUCTOR_FORCE_DISABLE_CACHES="1", PYTHONDONTWRITEBYTECODE="1")
only = {pathlib.Path(arg).resolve() for arg in sys.argv[1:]}
drivers = [d for d in sorted(here.glob("*/main.py")) if not only or d.parent in only]
for driver in drivers:
    result = subprocess.run([sys.executable, driver.name], cwd=driver.parent, capture_output=True, text=True, env=env)
    if result.returncode != 0:
        sys.exit(f"{driver.relative_to(here)} failed:\n{result.stderr}")
    driver.with_suffix(".out").write_text(result.stdout)
produced = f"Python {sys.version.split()[0]}, torch {torch.__version__}"
if not only:  # a partial run leaves the record of the full one
    (here / "PRODUCED_BY").write_text(produced + "\n")
print(f"wrote {len(drivers)} expected outputs ({produced})")
