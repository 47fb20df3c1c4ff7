# itertools for Fusescope scripts. Scripts have no generators, so each function returns a
# list: fine for the finite iterables models use; the infinite ones (count, cycle) are not
# provided.


def chain(*iterables):
    out = []
    for it in iterables:
        out.extend(it)
    return out


def _from_iterable(iterables):
    return chain(*iterables)


chain.from_iterable = _from_iterable


def product(*iterables, repeat=1):
    pools = [list(p) for p in iterables] * repeat
    result = [()]
    for pool in pools:
        result = [r + (x,) for r in result for x in pool]
    return result


def accumulate(iterable, func=None, initial=None):
    out = [] if initial is None else [initial]
    total = initial
    for i, x in enumerate(iterable):
        if i == 0 and initial is None:
            total = x
        else:
            total = func(total, x) if func is not None else total + x
        out.append(total)
    return out


def islice(iterable, *args):
    items = list(iterable)
    return items[slice(*args)]


def repeat(obj, times):
    return [obj] * times


def pairwise(iterable):
    items = list(iterable)
    return [(items[i], items[i + 1]) for i in range(len(items) - 1)]


def combinations(iterable, r):
    pool = tuple(iterable)
    n = len(pool)
    if r > n:
        return []
    out = []
    def pick(start, chosen):
        if len(chosen) == r:
            out.append(tuple(chosen))
            return
        for i in range(start, n):
            pick(i + 1, chosen + [pool[i]])
    pick(0, [])
    return out


def zip_longest(*iterables, fillvalue=None):
    lists = [list(it) for it in iterables]
    longest = max((len(l) for l in lists), default=0)
    return [tuple(l[i] if i < len(l) else fillvalue for l in lists) for i in range(longest)]
