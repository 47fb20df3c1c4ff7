# sys for Fusescope scripts: the interpreter's facts model files read (version_info,
# maxsize, platform, argv) and stdout/stderr as files to write. sys.path starts as the
# script's folder; the script's later imports look in the folders it holds then.
import _system


class _VersionInfo:
    """sys.version_info: compared and indexed as the tuple it is in CPython."""

    def __init__(self, *fields):
        self._fields = fields
        self.major, self.minor, self.micro, self.releaselevel, self.serial = fields

    def __getitem__(self, index):
        return self._fields[index]

    def __iter__(self):
        return iter(self._fields)

    def __len__(self):
        return len(self._fields)

    def __eq__(self, other):
        return self._fields == tuple(other)

    def __lt__(self, other):
        return self._fields < tuple(other)

    def __le__(self, other):
        return self._fields <= tuple(other)

    def __gt__(self, other):
        return self._fields > tuple(other)

    def __ge__(self, other):
        return self._fields >= tuple(other)

    def __repr__(self):
        names = ("major", "minor", "micro", "releaselevel", "serial")
        return "sys.version_info(" + ", ".join(f"{n}={v!r}" for n, v in zip(names, self._fields)) + ")"


version_info = _VersionInfo(3, 11, 7, "final", 0)
version = "3.11.7 (Fusescope)"
hexversion = 0x30B07F0
platform = "linux"
byteorder = "little"
maxsize = 9223372036854775807
argv = _system.argv
path = [_system.argv[0].rpartition("/")[0]]
modules = {}


class _Stdout:
    def write(self, text):
        print(text, end="")
        return len(text)

    def flush(self):
        pass


class _Stderr:
    def write(self, text):
        return _system.write_stderr(text)

    def flush(self):
        pass


stdout = _Stdout()
stderr = _Stderr()


def exit(status=None):
    raise SystemExit(status)


def getrecursionlimit():
    return 1000
