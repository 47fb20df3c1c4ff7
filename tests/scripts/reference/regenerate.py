#!/usr/bin/env python3
"""Writes the expected stdout of every program under tests/scripts/reference/ by running it
under real Python (and, for programs that import torch, real PyTorch).

    python3 tests/scripts/reference/regenerate.py            # the Python-only programs
    /tmp/torchenv/bin/python tests/scripts/reference/regenerate.py   # all of them
    /tmp/torchenv/bin/python tests/scripts/reference/regenerate.py PROGRAM.py...   # only those
    /tmp/torchenv/bin/python tests/scripts/reference/regenerate.py --examples   # the examples' logs

Each NAME.py gets NAME.out beside it, and a program that compiles NAME.breaks: the lines of
its own code where Dynamo broke the graph (TORCH_LOGS=graph_breaks), one per line, with
NAME.graph_breaks, that log's text; and one that recompiles NAME.recompiles: the recompiles
log's text; and NAME.guards, the guards log (TORCH_LOGS=guards) of each compile. Logs are kept
as the text after each line's prefix, paths cut to file names, ids (in any log) and timings masked.
PRODUCED_BY records the Python and torch versions.
Not part of `make test`: the test only compares Fusescope's output with these files.
python/torch_checkpoints.py also needs the safetensors package (pip install safetensors numpy).
"""
import os
import pathlib
import re
import subprocess
import sys

here = pathlib.Path(__file__).resolve().parent
try:
    import torch  # noqa: F401

    torch_version = torch.__version__
except ImportError:
    torch_version = None


def mask_paths(text):
    """Each path to a .py file cut to the file's name (PyTorch prints absolute paths and ones
    shortened against its own install folder), torch's folders from its package
    ("(.../site-packages/torch/_compile)" -> "(torch/_compile)"), objects' ids left out (" (id=0x7f...)") and
    addresses masked ("<function f at 0x...>"): reference_programs_test.cpp masks Fusescope's
    log alike."""
    text = re.sub(r'(?:[^\s"/`]*/)+([^\s"/`]+\.py)', r"\1", text)
    text = re.sub(r"/[^\s()]*/site-packages/", "", text)  # torch's folders: (torch/_compile)
    return re.sub(r" at 0x[0-9a-f]+", " at 0x...", re.sub(r" \(id=0x[0-9a-f]+\)", "", text))


def mask_guards(text):
    """What differs between two runs of one program in a guards log: objects' and types' ids
    ("___check_obj_id(G['F'], 1397...)", and in the name of the weak reference Dynamo keeps to
    an optimizer, "__optimizer_1397..._1397..._c11", or to torch, "G['_1397..._c0']"), the thread count in the global state, the time the
    guards took to check, and whether the shape guard function's closure names __builtins__
    (CPython adds it to Dynamo's closure dict once the process has run guard code with it)."""
    text = re.sub(r"(___check_(?:obj|type)_id\(.*?, )[0-9]+\)", r"\1...)", text)
    text = re.sub(r"__optimizer_[0-9]+_[0-9]+_c", "__optimizer_..._..._c", text)
    text = re.sub(r"'_[0-9]+_c([0-9]+)'", r"'_..._c\1'", text)  # a global Dynamo installs by id (torch, for type(x))
    text = text.replace("math, torch, __builtins__, ___check_type_id", "math, torch, ___check_type_id")
    text = re.sub(r'"num_threads":[0-9]+', '"num_threads":N', text)
    return re.sub(r"Guard eval latency = [0-9.]+ us", "Guard eval latency = ... us", text)


def log_text(stderr, artifact):
    """An artifact's log: each line's text after its "[__artifact] " prefix, masked."""
    prefix = f"[__{artifact}] "
    text = "".join(mask_paths(line.split(prefix, 1)[1]) + "\n" for line in stderr.splitlines() if prefix in line)
    return mask_guards(text)  # a recompile reason can name an id too


def is_program(path):
    """Every .py file, except in a folder holding main.py: a program of several files, run
    as main.py (reference_programs_test.cpp has the same rule)."""
    for folder in path.parents:
        if folder == here:
            break
        if (folder / "main.py").exists():
            return path == folder / "main.py"
    return path.name != "regenerate.py"


def write_log(path, text):
    if text:
        path.write_text(text)
    else:
        path.unlink(missing_ok=True)


def log_env():
    # Without Inductor's caches: a graph cached by an earlier program (on disk too) can carry
    # that program's input aliasing into this one (seen with PyTorch 2.15).
    # No __pycache__ folders left in the tree by programs that import their own modules.
    return dict(os.environ, TORCHINDUCTOR_FORCE_DISABLE_CACHES="1", PYTHONDONTWRITEBYTECODE="1",
                TORCH_LOGS="graph_breaks,recompiles,guards")


if sys.argv[1:] == ["--examples"]:
    # The examples' stdout is tests/golden/examples/NAME.out (reviewed by hand); their
    # graph_breaks and recompiles logs are PyTorch's: NAME.graph_breaks, NAME.recompiles.
    examples = here.parents[2] / "resources/examples"
    golden = here.parents[2] / "tests/golden/examples"
    programs = sorted(examples.glob("*.py")) + sorted(examples.glob("*/main.py"))
    for program in programs:
        name = program.parent.name if program.name == "main.py" else program.stem
        result = subprocess.run([sys.executable, program.name], cwd=program.parent, capture_output=True, text=True, env=log_env())
        if result.returncode != 0:
            sys.exit(f"{program.name} failed:\n{result.stderr}")
        for artifact in ("graph_breaks", "recompiles", "guards"):
            write_log(golden / f"{name}.{artifact}", log_text(result.stderr, artifact))
    print(f"wrote the logs of {len(programs)} examples (torch {torch_version})")
    sys.exit(0)

only = {pathlib.Path(arg).resolve() for arg in sys.argv[1:]}
written = skipped = 0
for program in sorted(here.rglob("*.py")):
    if not is_program(program) or (only and program not in only):
        continue
    if "import torch" in program.read_text() and torch_version is None:
        print(f"skipped {program.relative_to(here)}: needs torch", file=sys.stderr)
        skipped += 1
        continue
    source = program.read_text()
    compiles = "torch.compile" in source
    env = log_env()
    if not compiles:
        del env["TORCH_LOGS"]
    result = subprocess.run([sys.executable, program.name], cwd=program.parent, capture_output=True, text=True, env=env)
    if result.returncode != 0:
        sys.exit(f"{program.relative_to(here)} failed:\n{result.stderr}")
    program.with_suffix(".out").write_text(result.stdout)
    if compiles:  # where Dynamo broke the graph in the program's own lines (not in torch's)
        lines = sorted({int(m.group(1)) for m in re.finditer(rf"Graph break in user code at .*/{re.escape(program.name)}:(\d+)", result.stderr)})
        program.with_suffix(".breaks").write_text("".join(f"{program.name}:{line}\n" for line in lines))
        # What Dynamo said of its graph breaks, why it recompiled and the guards it made:
        # NAME.graph_breaks, NAME.recompiles and NAME.guards, where it did at all.
        for artifact in ("graph_breaks", "recompiles", "guards"):
            write_log(program.with_suffix("." + artifact), log_text(result.stderr, artifact))
    written += 1

produced = f"Python {sys.version.split()[0]}"
if torch_version:
    produced += f", torch {torch_version}"
if not skipped and not only:  # a partial run leaves the record of the full one
    (here / "PRODUCED_BY").write_text(produced + "\n")
print(f"wrote {written} expected outputs ({produced})")
