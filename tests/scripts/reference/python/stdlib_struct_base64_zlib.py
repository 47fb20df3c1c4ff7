# struct, base64/binascii, zlib and gzip: packing with every byte order and its errors, base64's
# lenient and strict decoding, zlib streams and one-shot calls, gzip members.
import struct, base64, binascii, zlib, gzip
print(struct.pack("<iHf", -2, 65535, 1.5), struct.unpack("<iHf", struct.pack("<iHf", -2, 65535, 1.5)))
print(struct.pack("@bi", 1, 2), struct.pack("=bi", 1, 2), struct.pack(">Qd", 9223372036854775807, -0.5))
print(struct.calcsize("@bi"), struct.calcsize("<bi"), struct.pack("3s2xc?", b"abcd", b"z", []), struct.pack("5p", b"hi"))
print(struct.unpack("5p3s", b"\x02hixxabc"), struct.pack("<e", 0.1), struct.unpack("<e", b"\x66\x2e"), struct.pack("<e", 65504.0))
print(list(struct.iter_unpack("<h", b"\x01\x00\x02\x00")), struct.unpack_from("<h", b"xx\x05\x00", 2), struct.unpack_from("<h", b"xx\x05\x00", offset=-2))
buf = bytearray(6)
struct.pack_into("<hI", buf, 0, 7, 9)
print(buf)
s = struct.Struct("<2H")
print(s.size, s.format, s.pack(1, 2), s.unpack(b"\x01\x00\x02\x00"))
for args in [("i", "x"), ("i", 1.5), ("s", 1), ("c", b"ab"), ("2i", 1), ("b", 300), ("B", -1), ("h", 70000), ("H", -1), ("i", 2**40),
             ("I", -1), ("I", 2**40), ("<l", 2**40), ("Q", -1), ("<e", 1e300), ("<f", 1e300), ("y",), ("<n", 1), ("3",)]:
    try:
        struct.pack(*args)
    except (struct.error, OverflowError) as e:
        print(type(e).__name__, e)
for f in (lambda: struct.unpack("<i", b"abc"), lambda: struct.unpack_from("i", b"ab", 1)):
    try:
        f()
    except struct.error as e:
        print("struct.error:", e, isinstance(e, Exception))
print(base64.b64encode(b"hello world!?"), base64.b64encode(b"\xfb\xff", b"-_"), base64.urlsafe_b64encode(b"\xfb\xff\xfe"))
print(base64.b64decode("aGVsbG8="), base64.b64decode(b"aGVs bG8=\n"), base64.urlsafe_b64decode("-_-_"), base64.standard_b64decode(b"YQ=="))
print(base64.b16encode(b"\x01\xab"), base64.b16decode("01AB"), base64.b16decode("01ab", casefold=True), base64.encodebytes(b"x" * 60))
for bad in ("aGVsbG8", "a", "YQ==YQ==", "=YQ", "YQ=x=", "Y!Q="):
    for validate in (False, True):
        try:
            print(base64.b64decode(bad, validate=validate))
        except binascii.Error as e:
            print("binascii.Error:", e, isinstance(e, ValueError))
print(binascii.hexlify(b"\x00\xff"), binascii.unhexlify("00ff"), binascii.b2a_base64(b"ab"))
data = b"Fusescope " * 20
packed = zlib.compress(data)
print(len(data), packed, zlib.decompress(packed) == data, zlib.crc32(data), zlib.adler32(data), zlib.crc32(b"b", zlib.crc32(b"a")))
print(zlib.compress(b"abc", 1), zlib.compress(b"abc", level=9, wbits=-15), zlib.decompress(zlib.compress(b"raw", wbits=-9), wbits=-9))
c = zlib.compressobj(6, zlib.DEFLATED, 31)
stream = c.compress(data) + c.flush()
d = zlib.decompressobj(47)
print(d.decompress(stream + b"tail") == data, d.eof, d.unused_data, len(stream))
for bad in (b"not zlib", packed[:-5]):
    try:
        zlib.decompress(bad)
    except zlib.error as e:
        print("zlib.error:", e)
g = gzip.compress(data, mtime=1700000000)
print(g[:10], len(g), gzip.decompress(g) == data, gzip.decompress(g + gzip.compress(b"!", mtime=0)) == data + b"!")
print(gzip.compress(b"abc", mtime=0))
for bad in (b"nope", g[:-3]):
    try:
        gzip.decompress(bad)
    except (gzip.BadGzipFile, EOFError) as e:
        print(type(e).__name__, e)
