# random: CPython's Mersenne Twister, seeded by int (small, negative, past 32 bits) and float,
# (within Fusescope's 64-bit integers)
# and the methods built on it: random, getrandbits, randrange, randint, choice, shuffle,
# sample, choices, uniform, gauss, normalvariate, expovariate, getstate/setstate, and
# separate Random instances.
import random

random.seed(0)
print(random.random(), random.random())
print([random.randint(1, 6) for _ in range(10)])
random.seed(1234567890123456789)
print(random.random(), random.getrandbits(1), random.getrandbits(32), random.getrandbits(33), random.getrandbits(63))
random.seed(-7)
print(random.randrange(10), random.randrange(3, 30, 4), random.randrange(20, 2, -3), random.randrange(5, 6))
random.seed(2.5)
print(random.random())
random.seed(42)
deck = list(range(12))
random.shuffle(deck)
print(deck, random.choice("abcdef"), random.choice([10, 20, 30]))
print(random.sample(range(100), 5), random.sample(["a", "b", "c", "d"], 4), random.sample(range(10), 7))
print(random.choices("xyz", k=6), random.choices([1, 2, 3], weights=[0.1, 0.1, 10], k=4),
      random.choices("ab", cum_weights=[1, 5], k=3))
print(random.uniform(2, 3), random.gauss(0, 1), random.gauss(10, 2), random.normalvariate(), random.expovariate(2.0))
state = random.getstate()
first = [random.random() for _ in range(3)]
random.setstate(state)
print(first == [random.random() for _ in range(3)], len(state[1]))
mine = random.Random(7)
other = random.Random(7)
print(mine.random() == other.random(), mine.randint(0, 10**15), mine.randrange(-2**40, 2**40))
many = random.Random(1)
print(sum(many.random() for _ in range(2000)))
for bad in (lambda: random.randrange(0), lambda: random.randrange(5, 5), lambda: random.randrange(1, 9, 0),
            lambda: random.choice([]), lambda: random.sample(range(3), 4), lambda: random.getrandbits(-1),
            lambda: random.randrange(2.5), lambda: random.sample({1, 2}, 1)):
    try:
        bad()
    except (ValueError, IndexError, TypeError) as e:
        print(type(e).__name__ + ":", e)
