# gzip for Fusescope scripts: compress and decompress in one shot, as CPython 3.11's gzip
# does them (its header, several members, its errors), over zlib. GzipFile and open need
# files, which scripts do not have.
import struct
import time
import zlib

__all__ = ["BadGzipFile", "compress", "decompress"]

FTEXT, FHCRC, FEXTRA, FNAME, FCOMMENT = 1, 2, 4, 8, 16
_COMPRESS_LEVEL_FAST = 1
_COMPRESS_LEVEL_BEST = 9


class BadGzipFile(OSError):
    pass


def _create_simple_gzip_header(compresslevel, mtime=None):
    if mtime is None:
        mtime = time.time()
    if compresslevel == _COMPRESS_LEVEL_BEST:
        xfl = 2
    elif compresslevel == _COMPRESS_LEVEL_FAST:
        xfl = 4
    else:
        xfl = 0
    return struct.pack("<BBBBLBB", 0x1F, 0x8B, 8, 0, int(mtime), xfl, 255)


def compress(data, compresslevel=_COMPRESS_LEVEL_BEST, *, mtime=None):
    if mtime == 0:
        return zlib.compress(data, level=compresslevel, wbits=31)
    header = _create_simple_gzip_header(compresslevel, mtime)
    trailer = struct.pack("<LL", zlib.crc32(data), (len(data) & 0xFFFFFFFF))
    return header + zlib.compress(data, level=compresslevel, wbits=-15) + trailer


def _read_exact(data, pos, n):
    if pos + n > len(data):
        raise EOFError("Compressed file ended before the end-of-stream marker was reached")
    return data[pos:pos + n], pos + n


def _skip_zero_terminated(data, pos):
    end = data.find(b"\x00", pos)
    return len(data) if end < 0 else end + 1


def _read_gzip_header(data, pos):
    """The position after the member's header at pos, or None at the end of the data."""
    magic = data[pos:pos + 2]
    if magic == b"":
        return None
    if magic != b"\037\213":
        raise BadGzipFile("Not a gzipped file (%r)" % magic)
    fields, pos = _read_exact(data, pos + 2, 8)
    method, flag, last_mtime = struct.unpack("<BBIxx", fields)
    if method != 8:
        raise BadGzipFile("Unknown compression method")
    if flag & FEXTRA:
        size, pos = _read_exact(data, pos, 2)
        _, pos = _read_exact(data, pos, struct.unpack("<H", size)[0])
    if flag & FNAME:
        pos = _skip_zero_terminated(data, pos)
    if flag & FCOMMENT:
        pos = _skip_zero_terminated(data, pos)
    if flag & FHCRC:
        _, pos = _read_exact(data, pos, 2)
    return pos


def decompress(data):
    decompressed_members = []
    while True:
        pos = _read_gzip_header(data, 0)
        if pos is None:
            return b"".join(decompressed_members)
        do = zlib.decompressobj(wbits=-zlib.MAX_WBITS)
        decompressed = do.decompress(data[pos:])
        if not do.eof or len(do.unused_data) < 8:
            raise EOFError("Compressed file ended before the end-of-stream marker was reached")
        crc, length = struct.unpack("<II", do.unused_data[:8])
        if crc != zlib.crc32(decompressed):
            raise BadGzipFile("CRC check failed")
        if length != (len(decompressed) & 0xFFFFFFFF):
            raise BadGzipFile("Incorrect length of data produced")
        decompressed_members.append(decompressed)
        data = do.unused_data[8:].lstrip(b"\x00")
