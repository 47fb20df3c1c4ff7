# struct for Fusescope scripts: its functions are _struct's (engine/script/struct_module.cpp),
# as CPython's struct re-exports its C module; Struct keeps a format for repeated use.
from _struct import error, calcsize, pack, pack_into, unpack, unpack_from, iter_unpack

__all__ = ["calcsize", "pack", "pack_into", "unpack", "unpack_from", "iter_unpack", "Struct", "error"]


class Struct:
    def __init__(self, format):
        self.format = format.decode("ascii") if isinstance(format, bytes) else format
        self.size = calcsize(self.format)

    def pack(self, *values):
        return pack(self.format, *values)

    def pack_into(self, buffer, offset, *values):
        return pack_into(self.format, buffer, offset, *values)

    def unpack(self, buffer):
        return unpack(self.format, buffer)

    def unpack_from(self, buffer, offset=0):
        return unpack_from(self.format, buffer, offset)

    def iter_unpack(self, buffer):
        return iter_unpack(self.format, buffer)
