# A sibling module: its functions read and write its own globals.
SCALE = 2
loads = 0
_bumps = 0


def scale(x):
    return x * SCALE


class Counter:
    def __init__(self):
        self.n = 0

    def bump(self):
        global _bumps
        self.n += 1
        _bumps += 1


def total_bumps():
    return _bumps


loads += 1
print("helper runs once, as", __name__)
