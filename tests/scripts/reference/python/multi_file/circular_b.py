import circular_a

SEEN = (circular_a.A_BEFORE, hasattr(circular_a, "A_AFTER"))
