# struct for Fusescope scripts: calcsize, with CPython's sizes and alignment for every
# format character. Scripts have no bytes type yet, so pack and unpack raise a clear
# NotImplementedError (model files import struct for their export functions).
_SIZES = {"x": 1, "c": 1, "b": 1, "B": 1, "?": 1, "h": 2, "H": 2, "i": 4, "I": 4, "l": 8, "L": 8, "q": 8, "Q": 8,
          "n": 8, "N": 8, "e": 2, "f": 4, "d": 8, "s": 1, "p": 1, "P": 8}
_STANDARD = {"l": 4, "L": 4}  # sizes that differ without native alignment


class error(Exception):
    pass


def calcsize(format):
    native = not format or format[0] not in "<>!="
    if format and format[0] in "@<>!=":
        format = format[1:]
    size, count = 0, ""
    for char in format:
        if char.isspace():
            continue
        if char.isdigit():
            count += char
            continue
        if char not in _SIZES or (not native and char in "nNP"):
            raise error("bad char in struct format")
        item = _SIZES[char] if native else _STANDARD.get(char, _SIZES[char])
        repeat = int(count) if count else 1
        if native and char not in "xcbB?sp" and size % item:
            size += item - size % item
        size += item * repeat
        count = ""
    return size


def _no_bytes(name):
    raise NotImplementedError(f"struct.{name}() needs bytes, which Fusescope scripts do not have yet")


def pack(format, *values):
    _no_bytes("pack")


def unpack(format, buffer):
    _no_bytes("unpack")


def pack_into(format, buffer, offset, *values):
    _no_bytes("pack_into")


def unpack_from(format, buffer, offset=0):
    _no_bytes("unpack_from")
