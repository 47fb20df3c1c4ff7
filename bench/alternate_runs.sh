#!/bin/bash
# Alternating runs of two builds on one machine at one time, so machine noise falls on both:
#   bench/alternate_runs.sh BASE_TREE NEW_TREE [ROUNDS]
# Each tree needs build/bin/bench_capture_overhead and build/bin/bench_inductor (build a
# base commit in a worktree with `--target bench_inductor bench_capture_overhead`).
set -eu
base=$1 new=$2 rounds=${3:-3}
for i in $(seq 1 "$rounds"); do
  for build in base new; do
    dir=$base; [ "$build" = new ] && dir=$new
    echo "=== run $i $build ($dir)"
    "$dir/build/bin/bench_capture_overhead" 2000 | tail -3
    "$dir/build/bin/bench_inductor" 3 | tail -9
  done
done
