# Imports circular_b, which imports this module back while it is half made.
A_BEFORE = "a-before"
import circular_b
A_AFTER = "a-after"


def seen_by_b():
    return circular_b.SEEN
