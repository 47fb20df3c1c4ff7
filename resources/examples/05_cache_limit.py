# A static function called with ever-changing sizes recompiles until the cache size limit,
# warns once, then runs eagerly (with correct results).
import torch

torch._dynamo.config.cache_size_limit = 3


@torch.compile(backend="eager", dynamic=False)
def double(x):
    return x + x


for n in range(1, 7):
    print(double(torch.ones(n)).sum())
