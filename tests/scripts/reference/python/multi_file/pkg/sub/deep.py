from ..util import twice
from .. import VERSION


def depth():
    return twice(VERSION[0]) * 10
