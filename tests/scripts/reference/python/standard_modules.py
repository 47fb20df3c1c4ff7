import math
from dataclasses import dataclass, field, fields, asdict, replace
import dataclasses
from typing import Optional, List, Dict, Tuple
from collections import OrderedDict, namedtuple, Counter
from functools import partial, reduce
import functools
import itertools


@dataclass
class GPTConfig:
    block_size: int = 256
    vocab_size: int = 65
    n_layer: int = 6
    n_head: int = 6
    n_embd: int = 384
    dropout: float = 0.0
    bias: bool = True
    tags: List[str] = field(default_factory=list)
    name: Optional[str] = None


cfg = GPTConfig(n_layer=2, n_embd=64)
print(cfg)
print(cfg.n_embd // cfg.n_head, cfg == GPTConfig(n_layer=2, n_embd=64), cfg == GPTConfig())
print([f.name for f in fields(cfg)])
print(asdict(replace(cfg, dropout=0.1)))
cfg.tags.append("small")
print(GPTConfig().tags, cfg.tags)


@dataclass(frozen=True)
class Point:
    x: float
    y: float = 0.0

    def norm(self):
        return math.sqrt(self.x ** 2 + self.y ** 2)


p = Point(3.0, 4.0)
print(p, p.norm(), Point(1.0))
try:
    p.x = 5
except dataclasses.FrozenInstanceError as e:
    print("frozen:", e)
try:
    Point()
except TypeError as e:
    print(e)


@dataclass(order=True)
class Version:
    major: int
    minor: int = 0

    def __post_init__(self):
        self.label = f"v{self.major}.{self.minor}"


print(sorted([Version(2, 1), Version(1, 5), Version(2, 0)]), Version(1).label)

od = OrderedDict()
od["weight"] = 1
od["bias"] = 2
print(od, list(od.keys()), OrderedDict(), isinstance(od, dict))
Pair = namedtuple("Pair", ["first", "second"])
pr = Pair(1, second=2)
a, b = pr
print(pr, pr.first, pr[1], a + b, len(pr), pr._asdict(), pr._replace(first=9), Pair._fields)
print(Counter("abracadabra").most_common(2))
add3 = partial(lambda a, b, c: a + b + c, 1, c=3)
print(add3(2), reduce(lambda x, y: x * y, [1, 2, 3, 4]), reduce(lambda x, y: x + y, [], 10))
print(list(itertools.chain([1, 2], (3,))), list(itertools.product("ab", [0, 1])))
print(list(itertools.accumulate([1, 2, 3])), list(itertools.islice(range(10), 2, 8, 2)))
print(list(itertools.combinations([1, 2, 3], 2)), list(itertools.chain.from_iterable([[1], [2, 3]])))
print(math.sqrt(16), math.pi, math.log(math.e), math.ceil(2.1), math.floor(-2.1), math.inf > 1e308)
