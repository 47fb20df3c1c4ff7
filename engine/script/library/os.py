# os for Fusescope scripts: what model files read of the machine (os.environ, the working
# directory, os.path, listdir, os.sep, os.cpu_count), through the engine's _system module.
# Nothing here writes files (makedirs and friends are not provided): torch.save writes
# checkpoints, tempfile makes a directory for them.
import _system
import posixpath as path

name = "posix"
sep = "/"
curdir = "."
pardir = ".."
linesep = "\n"
environ = _system.environ()


def getcwd():
    return _system.getcwd()


def getenv(key, default=None):
    return environ.get(key, default)


def listdir(path="."):
    return sorted(_system.listdir(path))


def cpu_count():
    return 1
