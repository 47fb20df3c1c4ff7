#!/bin/bash
# The models benchmark under Fusescope and real PyTorch in turn, ROUNDS times, each with an
# empty compile cache, so the machine's noise falls on both; then the median of each
# column and the compiled-forward ratio of the medians (above 1: Fusescope is faster).
#   bench/scripts/models_alternate.sh [ROUNDS] [PYTHON]   (PYTHON: a venv with torch)
set -eu
rounds=${1:-5} python=${2:-/tmp/torchenv/bin/python}
here=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp)
for i in $(seq 1 "$rounds"); do
  d=$(mktemp -d); FUSESCOPE_CACHE_DIR=$d "$here/build/bin/fusescope-cli" run "$here/bench/scripts/models_bench.py" | sed 's/^/fusescope /' >>"$out"; rm -rf "$d"
  d=$(mktemp -d); TORCHINDUCTOR_CACHE_DIR=$d "$python" "$here/bench/scripts/models_bench.py" 2>/dev/null | grep -E '^(gpt|resnet):' | sed 's/^/torch /' >>"$out"; rm -rf "$d"
done
cat "$out"
python3 - "$out" <<'PY'
import re, statistics, sys
runs = {}
for line in open(sys.argv[1]):
    who, model, rest = line.split(" ", 2)
    values = dict((k, float(v)) for k, v in re.findall(r"(eager|cold compile|warm compile|compiled) ([0-9.]+) ms", rest))
    for k, v in values.items():
        runs.setdefault((model.rstrip(":"), who, k), []).append(v)
for model in ("gpt", "resnet"):
    for who in ("fusescope", "torch"):
        cells = ", ".join(f"{k} {statistics.median(runs[(model, who, k)]):.1f}" for k in ("eager", "cold compile", "warm compile", "compiled"))
        print(f"median {model} {who}: {cells} ms")
    ratio = statistics.median(runs[(model, "torch", "compiled")]) / statistics.median(runs[(model, "fusescope", "compiled")])
    cold = statistics.median(runs[(model, "torch", "cold compile")]) / statistics.median(runs[(model, "fusescope", "cold compile")])
    print(f"{model}: compiled forward {ratio:.2f}x torch.compile's speed, cold compile {cold:.0f}x faster")
PY
rm -f "$out"
