# A program of several files: sibling modules, a package with relative imports, a circular
# import, a module whose body raises, star imports, and the __main__ guard.
import helper
from helper import scale, Counter
import pkg
import pkg.layers
from pkg.layers import Block
from pkg import util as u
from pkg.sub.deep import depth
import pkg.sub.deep as deep_mod
import helper as helper_again
from exported import *
from pkg.util import *


def main():
    print(__name__, helper.__name__, pkg.__name__, pkg.layers.__name__, deep_mod.__name__)
    print(repr(helper.__package__), pkg.__package__, pkg.layers.__package__, deep_mod.__package__)
    print(scale(3), helper.SCALE)
    helper.SCALE = 5
    print(scale(3), helper.scale(1))
    c = Counter()
    c.bump()
    c.bump()
    print(c.n, helper.total_bumps(), helper._bumps)
    print(Block(2).forward(3), u.twice(4), depth(), pkg.twice(5))
    print(pkg.VERSION, pkg.layers.Block is Block, helper_again is helper, helper.loads)
    print(type(helper).__name__, repr(helper).startswith("<module 'helper'"))

    import circular_a
    print(circular_a.seen_by_b(), circular_a.A_AFTER)
    print(listed, _private_listed, twice(21))
    try:
        print(not_listed)
    except NameError as e:
        print("NameError:", e)



def failures():
    for attempt in range(2):
        try:
            import fails_once
        except ValueError as e:
            print("attempt", attempt, "ValueError:", e)

    try:
        import no_such_module_here
    except ModuleNotFoundError as e:
        print(type(e).__name__, e, isinstance(e, ImportError))
    try:
        import helper.nothing
    except ModuleNotFoundError as e:
        print(e)
    try:
        from pkg import nothing_there
    except ImportError as e:
        print(str(e).split(" (")[0])
    try:
        from helper import nothing_there
    except ImportError as e:
        print(str(e).split(" (")[0])


if __name__ == "__main__":
    main()
    failures()
