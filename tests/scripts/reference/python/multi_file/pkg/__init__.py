# A package: its __init__ runs first and may import its own submodules relatively.
from .util import twice

VERSION = (1, 2)
print("pkg/__init__ runs as", __name__, "in package", __package__)
