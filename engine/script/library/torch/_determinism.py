# torch's switch for deterministic algorithms, as torch/__init__.py has it (Python functions
# there: Dynamo guards them by their code). Fusescope's kernels are deterministic on every
# device, and the switch stays off: use_deterministic_algorithms is not offered, as the
# global-state guard would have to follow it.


def are_deterministic_algorithms_enabled():
    return False


def is_deterministic_algorithms_warn_only_enabled():
    return False
