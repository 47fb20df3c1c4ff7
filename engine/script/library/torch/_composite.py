# torch functions Fusescope composes from other ops (the rest of torch's functions are
# engine ops): einsum, baddbmm and dropout. Inside a compiled function they trace as the permutes,
# reshapes, sums and batched products they are made of, as PyTorch's own einsum runs
# through bmm.
import torch


def _implicit_output(terms):
    """Without '->', the output keeps the letters that appear once, in alphabetical order."""
    letters = "".join(terms)
    return "".join(sorted(letter for letter in set(letters) if letters.count(letter) == 1))


def _expand_ellipsis(terms, arrow, output, operands):
    """Each '...' becomes letters of its own for the dims it stands for, right-aligned across
    operands as broadcasting aligns them; without '->' those dims lead the output."""
    counts = []
    for i, (term, operand) in enumerate(zip(terms, operands)):
        named = len(term) - 3 if "..." in term else len(term)
        if "..." in term and named > operand.dim():
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({named}) is more than the number "
                               f"of dimensions ({operand.dim()}) for operand {i}")
        counts.append(operand.dim() - named if "..." in term else 0)
    fresh = [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" if c not in "".join(terms) + output]
    dims = "".join(fresh[:max(counts, default=0)])
    expanded = [term.replace("...", dims[len(dims) - n:]) for term, n in zip(terms, counts)]
    if arrow:
        return expanded, output.replace("...", dims)
    return expanded, dims + _implicit_output([term.replace("...", "") for term in terms])


def _sum_out(tensor, letters, keep):
    """Sums the dims whose letters are not in `keep`; the tensor and its remaining letters."""
    dims = [d for d, letter in enumerate(letters) if letter not in keep]
    if dims:
        tensor = tensor.sum(dims)
    return tensor, "".join(letter for letter in letters if letter in keep)


def _size_of(letter, a, a_letters, b, b_letters):
    sizes = [t.size(ls.index(letter)) for t, ls in ((a, a_letters), (b, b_letters)) if letter in ls]
    return max(sizes)


def _contract(a, a_letters, b, b_letters, keep):
    """a and b multiplied over their shared letters and summed over those not in `keep`,
    as one bmm: a as (batch, left, contracted), b as (batch, contracted, right)."""
    a, a_letters = _sum_out(a, a_letters, keep + b_letters)
    b, b_letters = _sum_out(b, b_letters, keep + a_letters)
    batch = [letter for letter in a_letters if letter in b_letters and letter in keep]
    contracted = [letter for letter in a_letters if letter in b_letters and letter not in keep]
    left = [letter for letter in a_letters if letter not in b_letters]
    right = [letter for letter in b_letters if letter not in a_letters]

    def arranged(tensor, letters, order):
        tensor = tensor.permute([letters.index(letter) for letter in order])
        sizes = [_size_of(letter, a, a_letters, b, b_letters) for letter in order]
        return tensor.expand(sizes)

    def count(group):
        n = 1
        for letter in group:
            n *= _size_of(letter, a, a_letters, b, b_letters)
        return n

    x = arranged(a, a_letters, batch + left + contracted).reshape(count(batch), count(left), count(contracted))
    y = arranged(b, b_letters, batch + contracted + right).reshape(count(batch), count(contracted), count(right))
    sizes = [_size_of(letter, a, a_letters, b, b_letters) for letter in batch + left + right]
    return torch.bmm(x, y).reshape(sizes), "".join(batch + left + right)


def einsum(equation, *operands):
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    equation = equation.replace(" ", "")
    inputs, arrow, output = equation.partition("->")
    terms = inputs.split(",")
    if len(terms) > len(operands):
        raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
    if len(terms) < len(operands):
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    terms, output = _expand_ellipsis(terms, arrow, output, operands)
    sizes = {}
    for i, (term, operand) in enumerate(zip(terms, operands)):
        if len(term) != operand.dim():
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({len(term)}) does not match the number "
                               f"of dimensions ({operand.dim()}) for operand {i} and no ellipsis was given")
        for letter, size in zip(term, operand.shape):
            known = sizes.get(letter, 1)
            if size != 1 and known != 1 and size != known:
                raise RuntimeError(f"einsum(): subscript {letter} has size {size} for operand {i} which does not broadcast "
                                   f"with previously seen size {known}")
            if size != 1:
                sizes[letter] = size
        if len(set(term)) != len(term):
            raise NotImplementedError("torch.einsum with a letter repeated in one operand (a diagonal) is not supported in "
                                      "Fusescope scripts yet")
    result, letters = operands[0], terms[0]
    for i in range(1, len(operands)):
        keep = output + "".join(terms[i + 1:])
        result, letters = _contract(result, letters, operands[i], terms[i], keep)
    result, letters = _sum_out(result, letters, output)
    return result.permute([letters.index(letter) for letter in output])


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """beta * input + alpha * (batch1 @ batch2); with beta == 0 input is not read (its NaNs
    do not propagate), as PyTorch does."""
    product = torch.bmm(batch1, batch2)
    if alpha != 1:
        product = product * alpha
    if beta == 0:
        return product
    return (input if beta == 1 else input * beta) + product


def dropout(input, p, train):
    """F.dropout's: where a gradient will flow, the input times a mask (MulBackward0, as
    PyTorch's CPU dropout), else the engine op."""
    return torch.nn.functional.dropout(input, p, train)
