# random for Fusescope scripts: CPython's Mersenne Twister (MT19937, seeded through
# init_by_array as Modules/_randommodule.c seeds it), so random.seed(0); random.random() gives
# Python's numbers, and the methods of CPython 3.11's Lib/random.py built on it the same way.
import math as _math
import time as _time
from itertools import accumulate as _accumulate

_N = 624
_M = 397
_UPPER = 0x80000000
_LOWER = 0x7FFFFFFF
_WORD = 0xFFFFFFFF
_TWOPI = 2.0 * _math.pi
_NV_MAGICCONST = 4 * _math.exp(-0.5) / _math.sqrt(2.0)


def _bisect_right(values, x, lo, hi):
    while lo < hi:
        mid = (lo + hi) // 2
        if x < values[mid]:
            hi = mid
        else:
            lo = mid + 1
    return lo


class Random:
    def __init__(self, x=None):
        self.seed(x)

    # ---- the generator (_randommodule.c) ----

    def seed(self, a=None, version=2):
        if a is None:
            a = int(_time.time() * 1000000)  # CPython reads os.urandom: any unpredictable seed
        elif isinstance(a, str):
            raise NotImplementedError("random.seed() of a str (hashed with SHA-512 by CPython) is not supported by "
                                      "Fusescope yet; seed with an int")
        elif isinstance(a, float):
            a = hash(a)
        elif not isinstance(a, int):
            raise TypeError("The only supported seed types are: None,\nint, float, str, bytes, and bytearray.")
        a = abs(a)
        key = []
        while True:
            key.append(a & _WORD)
            a >>= 32
            if not a:
                break
        self._init_by_array(key)
        self.gauss_next = None

    def _init_by_array(self, key):
        mt = [19650218]
        for i in range(1, _N):
            mt.append((1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & _WORD)
        i, j = 1, 0
        for _ in range(max(_N, len(key))):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j) & _WORD
            i += 1
            j += 1
            if i >= _N:
                mt[0] = mt[_N - 1]
                i = 1
            if j >= len(key):
                j = 0
        for _ in range(_N - 1):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & _WORD
            i += 1
            if i >= _N:
                mt[0] = mt[_N - 1]
                i = 1
        mt[0] = 0x80000000
        self._mt = mt
        self._index = _N

    def _twist(self):
        mt = self._mt
        for k in range(_N):
            y = (mt[k] & _UPPER) | (mt[(k + 1) % _N] & _LOWER)
            mt[k] = mt[(k + _M) % _N] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
        self._index = 0

    def _genrand_uint32(self):
        if self._index >= _N:
            self._twist()
        y = self._mt[self._index]
        self._index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        return y ^ (y >> 18)

    def random(self):
        """A float in [0, 1) from 53 random bits."""
        a = self._genrand_uint32() >> 5
        b = self._genrand_uint32() >> 6
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)

    def getrandbits(self, k):
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if k > 63:
            raise OverflowError(f"getrandbits({k}) needs integers wider than Fusescope's 64 bits")
        if k <= 32:
            return self._genrand_uint32() >> (32 - k) if k else 0
        result, shift = 0, 0
        while k > 0:  # 32-bit words, the least significant first
            word = self._genrand_uint32()
            if k < 32:
                word >>= 32 - k
            result |= word << shift
            shift += 32
            k -= 32
        return result

    def getstate(self):
        return (3, tuple(self._mt) + (self._index,), self.gauss_next)

    def setstate(self, state):
        version, internal, self.gauss_next = state
        if version != 3 or len(internal) != _N + 1:
            raise ValueError("state vector is the wrong size")
        self._mt = list(internal[:_N])
        self._index = internal[_N]

    # ---- integers and sequences (Lib/random.py) ----

    def _randbelow(self, n):
        k = n.bit_length()
        r = self.getrandbits(k)
        while r >= n:
            r = self.getrandbits(k)
        return r

    def randrange(self, start, stop=None, step=1):
        start = _integer(start, 1)
        if stop is None:
            if step != 1:
                raise TypeError("Missing a non-None stop argument")
            if start > 0:
                return self._randbelow(start)
            raise ValueError("empty range for randrange()")
        stop = _integer(stop, 2)
        step = _integer(step, 3)
        width = stop - start
        if step == 1:
            if width > 0:
                return start + self._randbelow(width)
            raise ValueError(f"empty range for randrange() ({start}, {stop}, {width})")
        if step > 0:
            n = (width + step - 1) // step
        elif step < 0:
            n = (width + step + 1) // step
        else:
            raise ValueError("zero step for randrange()")
        if n <= 0:
            raise ValueError("empty range for randrange()")
        return start + step * self._randbelow(n)

    def randint(self, a, b):
        return self.randrange(a, b + 1)

    def choice(self, seq):
        if not len(seq):
            raise IndexError("Cannot choose from an empty sequence")
        return seq[self._randbelow(len(seq))]

    def shuffle(self, x):
        for i in reversed(range(1, len(x))):
            j = self._randbelow(i + 1)
            x[i], x[j] = x[j], x[i]

    def sample(self, population, k, *, counts=None):
        if counts is not None:
            raise NotImplementedError("random.sample(counts=...) is not supported by Fusescope yet")
        if isinstance(population, (set, dict)):
            raise TypeError("Population must be a sequence.  For dicts or sets, use sorted(d).")
        n = len(population)
        if not 0 <= k <= n:
            raise ValueError("Sample larger than population or is negative")
        result = [None] * k
        setsize = 21  # a small set's hashing costs more than a list copy
        if k > 5:
            setsize += 4 ** _math.ceil(_math.log(k * 3) / _math.log(4))
        if n <= setsize:
            pool = list(population)
            for i in range(k):
                j = self._randbelow(n - i)
                result[i] = pool[j]
                pool[j] = pool[n - i - 1]
        else:
            selected = set()
            for i in range(k):
                j = self._randbelow(n)
                while j in selected:
                    j = self._randbelow(n)
                selected.add(j)
                result[i] = population[j]
        return result

    def choices(self, population, weights=None, *, cum_weights=None, k=1):
        n = len(population)
        if cum_weights is None:
            if weights is None:
                n += 0.0
                return [population[_math.floor(self.random() * n)] for _ in range(k)]
            cum_weights = list(_accumulate(weights))
        elif weights is not None:
            raise TypeError("Cannot specify both weights and cumulative weights")
        if len(cum_weights) != n:
            raise ValueError("The number of weights does not match the population")
        total = cum_weights[-1] + 0.0
        if total <= 0.0:
            raise ValueError("Total of weights must be greater than zero")
        return [population[_bisect_right(cum_weights, self.random() * total, 0, n - 1)] for _ in range(k)]

    # ---- real-valued distributions (Lib/random.py) ----

    def uniform(self, a, b):
        return a + (b - a) * self.random()

    def normalvariate(self, mu=0.0, sigma=1.0):
        while True:  # Kinderman and Monahan's ratio of uniforms
            u1 = self.random()
            u2 = 1.0 - self.random()
            z = _NV_MAGICCONST * (u1 - 0.5) / u2
            if z * z / 4.0 <= -_math.log(u2):
                return mu + z * sigma

    def gauss(self, mu=0.0, sigma=1.0):
        z = self.gauss_next
        self.gauss_next = None
        if z is None:  # Box-Muller: two normals from two uniforms, the second kept for next time
            x2pi = self.random() * _TWOPI
            g2rad = _math.sqrt(-2.0 * _math.log(1.0 - self.random()))
            z = _math.cos(x2pi) * g2rad
            self.gauss_next = _math.sin(x2pi) * g2rad
        return mu + z * sigma

    def expovariate(self, lambd=1.0):
        return -_math.log(1.0 - self.random()) / lambd


def _integer(value, position):
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value == int(value):
        return int(value)
    raise ValueError(f"non-integer arg {position} for randrange()")


_inst = Random()
seed = _inst.seed
random = _inst.random
getrandbits = _inst.getrandbits
getstate = _inst.getstate
setstate = _inst.setstate
randrange = _inst.randrange
randint = _inst.randint
choice = _inst.choice
shuffle = _inst.shuffle
sample = _inst.sample
choices = _inst.choices
uniform = _inst.uniform
normalvariate = _inst.normalvariate
gauss = _inst.gauss
expovariate = _inst.expovariate
