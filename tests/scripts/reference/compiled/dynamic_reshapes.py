# Sizes that change from call to call: automatic dynamic shapes recompile on the second
# call, dynamic=True from the first; every call must see its own sizes.
import torch


def pairs_summed(x):
    return x.reshape(-1, 2).sum(1)


def two_rows(x):
    return x.reshape(2, -1)


def pair_mean(x):
    return x.reshape(-1, 2).mean(0)


def every_other_reversed(x):
    return x.flip(0)[::2]


def pair_softmax(x):
    return x.reshape(-1, 2).softmax(1)


w = torch.arange(6.0).reshape(2, 3)


def pairs_times_w(x):
    return x.view(-1, 2) @ w


def scaled_by_length(x):
    return x.sum(0) * x.shape[0]


def mean_of_rest(x):
    return x[1:].sum() / (x.shape[0] - 1)


for fn in [pairs_summed, two_rows, pair_mean, every_other_reversed, pair_softmax, pairs_times_w, scaled_by_length, mean_of_rest]:
    for dynamic in [None, True]:
        torch._dynamo.reset()
        compiled = torch.compile(fn, dynamic=dynamic)
        for n in [2, 4, 6, 8]:
            print(fn.__name__, dynamic, n, compiled(torch.arange(float(n))))


def rows_reshaped(x):
    return x.permute(1, 0, 2).reshape(x.shape[1], -1)


def row_means(x):
    return x.sum(-1) / x.shape[-1]


compiled_rows, compiled_means = torch.compile(rows_reshaped, dynamic=True), torch.compile(row_means, dynamic=True)
for shape in [(2, 3, 4), (3, 4, 5), (2, 2, 6)]:
    x = torch.arange(float(shape[0] * shape[1] * shape[2])).reshape(shape)
    print(shape, compiled_rows(x).shape, compiled_rows(x)[-1], compiled_means(x)[-1])


# The same with a gradient: the eager graph keeps eager's backward.
w = torch.ones(2, requires_grad=True)


def weighted_pairs(x):
    return (x.reshape(-1, 2) * w).sum()


compiled = torch.compile(weighted_pairs)
for n in [2, 4, 6, 8]:
    w.grad = None
    compiled(torch.arange(float(n))).backward()
    print(n, w.grad)
