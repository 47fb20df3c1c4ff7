# tempfile for Fusescope scripts: a private directory to save checkpoints into and read them
# back from (mkdtemp, TemporaryDirectory, which removes it with everything in it). Scripts
# write files only through torch.save, so there are no temporary files of other kinds.
import _system


def gettempdir():
    return _system.tempdir()


def mkdtemp(suffix=None, prefix=None, dir=None):
    return _system.mkdtemp(suffix or "", "tmp" if prefix is None else prefix, dir or gettempdir())


class TemporaryDirectory:
    def __init__(self, suffix=None, prefix=None, dir=None, ignore_cleanup_errors=False):
        self.name = mkdtemp(suffix, prefix, dir)

    def __repr__(self):
        return "<{} {!r}>".format(self.__class__.__name__, self.name)

    def __enter__(self):
        return self.name

    def __exit__(self, exc, value, tb):
        self.cleanup()

    def cleanup(self):
        _system.rmtree(self.name)
