# base64 for Fusescope scripts: the RFC 4648 base64 and base16 codecs as CPython 3.11's
# base64 module offers them, over binascii (engine/script/binascii_module.cpp). base32,
# base85 and the file functions are not here.
import binascii

__all__ = ["b64encode", "b64decode", "standard_b64encode", "standard_b64decode", "urlsafe_b64encode",
           "urlsafe_b64decode", "b16encode", "b16decode", "encodebytes", "decodebytes"]


def _bytes_from_decode_data(s):
    if isinstance(s, str):
        try:
            return s.encode("ascii")
        except UnicodeEncodeError:
            raise ValueError("string argument should contain only ASCII characters")
    if isinstance(s, (bytes, bytearray)):
        return bytes(s)
    raise TypeError("argument should be a bytes-like object or ASCII string, not %r" % s.__class__.__name__)


def _translate(s, source, target):
    table = dict(zip(source, target))
    return bytes([table.get(c, c) for c in s])


def b64encode(s, altchars=None):
    encoded = binascii.b2a_base64(s, newline=False)
    if altchars is not None:
        assert len(altchars) == 2, repr(altchars)
        return _translate(encoded, b"+/", altchars)
    return encoded


def b64decode(s, altchars=None, validate=False):
    s = _bytes_from_decode_data(s)
    if altchars is not None:
        altchars = _bytes_from_decode_data(altchars)
        assert len(altchars) == 2, repr(altchars)
        s = _translate(s, altchars, b"+/")
    return binascii.a2b_base64(s, strict_mode=validate)


def standard_b64encode(s):
    return b64encode(s)


def standard_b64decode(s):
    return b64decode(s)


def urlsafe_b64encode(s):
    return b64encode(s, b"-_")


def urlsafe_b64decode(s):
    return b64decode(_translate(_bytes_from_decode_data(s), b"-_", b"+/"))


def b16encode(s):
    return binascii.hexlify(s).upper()


def b16decode(s, casefold=False):
    s = _bytes_from_decode_data(s)
    if casefold:
        s = s.upper()
    for c in s:
        if not (48 <= c <= 57 or 65 <= c <= 70):
            raise binascii.Error("Non-base16 digit found")
    return binascii.unhexlify(s)


def encodebytes(s):
    pieces = []
    for i in range(0, len(s), 57):
        pieces.append(binascii.b2a_base64(s[i:i + 57]))
    return b"".join(pieces)


def decodebytes(s):
    return binascii.a2b_base64(s)
