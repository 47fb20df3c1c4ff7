# os, os.path, sys, argparse and struct.calcsize as model scripts use them: paths as text, what exists,
# the interpreter's facts, stdout and stderr as files, and argument parsing from a given
# list with defaults, types, choices, flags, lists and errors (CPython 3.11 printed the .out).
import argparse
import os
import os.path
import sys

print(os.path.join("runs", "exp1", "model.pt"), os.path.join("a/", "b"), os.path.join("a", "/abs", "c"))
print(os.path.split("/data/images/cat.png"), os.path.split("file"), os.path.split("/top"))
print(os.path.basename("/x/y.tar.gz"), os.path.dirname("/x/y.tar.gz"), os.path.splitext("/x/y.tar.gz"),
      os.path.splitext(".bashrc"), os.path.splitext("a.b/c"))
print(os.path.normpath("a//b/./c/../d/"), os.path.normpath("/../x"), os.path.normpath(""), os.path.isabs("/a"))
print(os.path.relpath("/a/b/c", "/a/d"), os.path.abspath("/a/./b/../c"))
print(os.path.exists(__file__), os.path.isfile(__file__), os.path.isdir(__file__), os.path.exists("no/such/file"))
print(os.path.isdir(os.path.dirname(os.path.abspath(__file__))), os.sep, os.getenv("FUSESCOPE_SURELY_UNSET", "unset"))
print(os.environ.get("FUSESCOPE_SURELY_UNSET"), "PATH" in os.environ, os.path.basename(__file__) in os.listdir(os.path.dirname(os.path.abspath(__file__))))
print(sys.version_info >= (3, 8), sys.version_info[0], sys.version_info.major, sys.maxsize, sys.platform)
print(os.path.basename(sys.argv[0]), len(sys.argv))
sys.stdout.write("written to stdout\n")
print("to stderr", file=sys.stderr)
sys.stderr.write("also to stderr\n")


def parser():
    p = argparse.ArgumentParser(description="a training run")
    p.add_argument("data", help="where the data is")
    p.add_argument("--batch-size", type=int, default=64, metavar="N")
    p.add_argument("--lr", type=float, default=1.0)
    p.add_argument("--no-cuda", action="store_true", default=False)
    p.add_argument("--optimizer", choices=["sgd", "adam"], default="adam")
    p.add_argument("--layers", type=int, nargs="+", default=[2])
    p.add_argument("-v", "--verbose", action="count", default=0)
    p.add_argument("--tag", action="append")
    p.add_argument("--resume", nargs="?", const="last", default=None)
    return p


print(parser().parse_args(["mnist"]))
args = parser().parse_args(["--batch-size", "8", "cifar", "--lr=0.5", "--no-cuda", "--layers", "3", "4", "-vv",
                            "--tag", "a", "--tag", "b", "--optimizer", "sgd", "--resume"])
print(args)
print(args.batch_size * 2, args.no_cuda, args.layers, args.verbose, vars(args)["tag"])
print(parser().parse_known_args(["x", "--unknown", "1"]))
for bad in [[], ["x", "--batch-size", "eight"], ["x", "--optimizer", "rmsprop"], ["x", "--frobnicate"]]:
    try:
        parser().parse_args(bad)
    except SystemExit as e:
        print("SystemExit", e.code)

import struct

print(struct.calcsize("<iif"), struct.calcsize("bq"), struct.calcsize("@bi"), struct.calcsize("=bH"), struct.calcsize("3f"))
try:
    struct.calcsize("y")
except struct.error as e:
    print("struct.error:", e)
