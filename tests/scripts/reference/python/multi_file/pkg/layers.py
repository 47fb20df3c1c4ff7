from . import util
from .util import twice as double
from .sub.deep import depth


class Block:
    def __init__(self, width):
        self.width = width

    def forward(self, x):
        return util.twice(x) + double(self.width) + depth()
