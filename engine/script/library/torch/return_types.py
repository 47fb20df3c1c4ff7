# torch.return_types: what ops with several named results return (max and min along a
# dim, topk): a tuple whose results are also attributes, printed as PyTorch prints it.


class _ReturnType:
    def __init__(self, name, fields, values):
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_fields", fields)
        object.__setattr__(self, "_values", tuple(values))

    def __getattr__(self, name):
        if name in self._fields:
            return self._values[self._fields.index(name)]
        raise AttributeError(f"'torch.return_types.{self._name}' object has no attribute '{name}'")

    def __setattr__(self, name, value):
        raise AttributeError("readonly attribute")

    def __repr__(self):
        results = ",\n".join(f"{field}={value!r}" for field, value in zip(self._fields, self._values))
        return f"torch.return_types.{self._name}(\n{results})"

    def __getitem__(self, i):
        return self._values[i]

    def __len__(self):
        return len(self._values)

    def __iter__(self):
        return iter(self._values)

    def __eq__(self, other):
        return tuple(self) == tuple(other)

    def __hash__(self):  # a tuple in PyTorch: hashable as one
        return hash(self._values)


# One class per op, so type(r).__name__ is the op's name as in PyTorch.
class max(_ReturnType):
    pass


class min(_ReturnType):
    pass


class topk(_ReturnType):
    pass


class sort(_ReturnType):
    pass


class kthvalue(_ReturnType):
    pass


class median(_ReturnType):
    pass


class nanmedian(_ReturnType):
    pass


class cummax(_ReturnType):
    pass


class cummin(_ReturnType):
    pass


class aminmax(_ReturnType):
    pass


class slogdet(_ReturnType):
    pass


class inv_ex(_ReturnType):
    pass


class solve_ex(_ReturnType):
    pass


class cholesky_ex(_ReturnType):
    pass


_TYPES = {"max": max, "min": min, "topk": topk, "sort": sort, "kthvalue": kthvalue, "median": median, "nanmedian": nanmedian,
          "cummax": cummax, "cummin": cummin, "aminmax": aminmax, "slogdet": slogdet, "inv_ex": inv_ex, "solve_ex": solve_ex,
          "cholesky_ex": cholesky_ex}


def _make(name, fields, values):
    return _TYPES.get(name, _ReturnType)(name, fields, values)
