# Lists changed through slices: a run replaced by more, fewer or no items, a stepped slice
# that needs exactly one item per index, deletion through slices, and the misuses Python
# refuses with its own words.

xs = list(range(10))
xs[2:5] = ["a", "b"]
print(xs, len(xs))
xs[1:1] = (7, 8, 9)
print(xs)
xs[-3:] = []
print(xs)
xs[:] = "hey"
print(xs)
xs[8:20] = [0]
xs[5:2] = [1, 2]
print(xs)

# The items are read before the list changes.
ys = [1, 2, 3]
ys[:] = ys
ys[1:] = ys
print(ys)
alias = ys
ys[:] = [y * 10 for y in ys]
print(alias is ys, alias)

steps = list(range(8))
steps[::2] = ["e0", "e1", "e2", "e3"]
print(steps)
steps[::-3] = [None, None, None]
print(steps)
steps[1:2:1] = [1, 1, 1]
print(steps, len(steps))

gone = list(range(12))
del gone[::3]
print(gone)
del gone[-2:]
print(gone)
del gone[5:1]
del gone[::-4]
print(gone)
del gone[:]
print(gone)

nested = [[1, 2], [3, 4]]
nested[0][1:] = [5, 6]
print(nested)

def assign_int():
    steps[1:2] = 5


def assign_int_stepped():
    steps[::2] = 5


def assign_too_few():
    steps[::2] = [1]


def assign_by_name():
    steps["a"] = 1


def delete_by_name():
    del steps["a"]


def delete_past_end():
    del steps[99]


def zero_step():
    steps[::0] = []


def float_bound():
    steps[1.5:] = []


for misuse in (assign_int, assign_int_stepped, assign_too_few, assign_by_name, delete_by_name, delete_past_end,
               zero_step, float_bound):
    try:
        misuse()
    except (TypeError, ValueError, IndexError) as e:
        print(type(e).__name__ + ":", e)
print(steps)
