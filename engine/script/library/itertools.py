# itertools for Fusescope scripts: generators, lazy as Python's own.

_missing = object()


def count(start=0, step=1):
    n = start
    while True:
        yield n
        n += step


def cycle(iterable):
    saved = []
    for x in iterable:
        yield x
        saved.append(x)
    while saved:
        yield from saved


def repeat(obj, times=None):
    if times is None:
        while True:
            yield obj
    for _ in range(times):
        yield obj


def chain(*iterables):
    for it in iterables:
        yield from it


def _from_iterable(iterables):
    for it in iterables:
        yield from it


chain.from_iterable = _from_iterable


def islice(iterable, *args):
    s = slice(*args)
    start = 0 if s.start is None else s.start
    step = 1 if s.step is None else s.step
    for bound in (start, s.stop, step):
        if bound is not None and (not isinstance(bound, int) or bound < 0):
            raise ValueError("Indices for islice() must be None or an integer: 0 <= x <= sys.maxsize.")
    if step == 0:
        raise ValueError("Step for islice() must be a positive integer or None.")
    it = iter(iterable)
    taken = 0  # items taken from it so far
    wanted = start
    while s.stop is None or wanted < s.stop:
        while taken < wanted:  # skip to the wanted item, taking no more than needed
            if next(it, _missing) is _missing:
                return
            taken += 1
        item = next(it, _missing)
        if item is _missing:
            return
        taken += 1
        yield item
        wanted += step


def accumulate(iterable, func=None, initial=None):
    total = initial
    if initial is not None:
        yield initial
    first = initial is None
    for x in iterable:
        if first:
            total = x
            first = False
        else:
            total = func(total, x) if func is not None else total + x
        yield total


def product(*iterables, repeat=1):
    pools = [tuple(p) for p in iterables] * repeat
    result = [()]
    for pool in pools:
        result = [r + (x,) for r in result for x in pool]
    yield from result


def pairwise(iterable):
    it = iter(iterable)
    previous = next(it, _missing)
    if previous is _missing:
        return
    for x in it:
        yield previous, x
        previous = x


def combinations(iterable, r):
    pool = tuple(iterable)

    def pick(start, chosen):
        if len(chosen) == r:
            yield tuple(chosen)
            return
        for i in range(start, len(pool)):
            yield from pick(i + 1, chosen + [pool[i]])

    if r <= len(pool):
        yield from pick(0, [])


def permutations(iterable, r=None):
    pool = tuple(iterable)
    r = len(pool) if r is None else r

    def pick(chosen, used):
        if len(chosen) == r:
            yield tuple(pool[i] for i in chosen)
            return
        for i in range(len(pool)):
            if i not in used:
                yield from pick(chosen + [i], used | {i})

    if r <= len(pool):
        yield from pick([], set())


def zip_longest(*iterables, fillvalue=None):
    iterators = [iter(it) for it in iterables]
    active = len(iterators)
    while active:
        row = []
        for i, it in enumerate(iterators):
            value = next(it, _missing)
            if value is _missing:
                active -= 1
                if not active:
                    return
                iterators[i] = repeat(fillvalue)
                value = fillvalue
            row.append(value)
        yield tuple(row)


def starmap(function, iterable):
    for args in iterable:
        yield function(*args)


def takewhile(predicate, iterable):
    for x in iterable:
        if not predicate(x):
            return
        yield x


def dropwhile(predicate, iterable):
    it = iter(iterable)
    for x in it:
        if not predicate(x):
            yield x
            break
    yield from it


def filterfalse(predicate, iterable):
    for x in iterable:
        if not (bool(x) if predicate is None else predicate(x)):
            yield x


def groupby(iterable, key=None):
    group, current = [], _missing
    for x in iterable:
        k = x if key is None else key(x)
        if current is not _missing and k != current:
            yield current, iter(group)
            group = []
        current = k
        group.append(x)
    if current is not _missing:
        yield current, iter(group)
