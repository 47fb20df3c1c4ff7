# json for Fusescope scripts: dumps/dump and loads/load as CPython 3.11's json writes and
# reads (its separators, indentation, escapes, float reprs, NaN and Infinity, key conversions,
# and JSONDecodeError's messages with line, column and character).
import _system

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}
_UNESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_WHITESPACE = " \t\n\r"


class JSONDecodeError(ValueError):
    __module__ = "json.decoder"  # where CPython defines it, as tracebacks name it

    def __init__(self, msg, doc, pos):
        lineno = doc[:pos].count("\n") + 1
        colno = pos - doc[:pos].rfind("\n")
        ValueError.__init__(self, f"{msg}: line {lineno} column {colno} (char {pos})")
        self.msg = msg
        self.doc = doc
        self.pos = pos
        self.lineno = lineno
        self.colno = colno


# ---- encoding ----------------------------------------------------------------------------------


def _encode_string(text, ensure_ascii):
    out = ['"']
    for c in _system.characters(text):
        code = ord(c)
        if c in _ESCAPES:
            out.append(_ESCAPES[c])
        elif code < 0x20 or (ensure_ascii and code > 0x7E):
            if code > 0xFFFF:  # a surrogate pair
                code -= 0x10000
                out.append("\\u%04x\\u%04x" % (0xD800 | (code >> 10), 0xDC00 | (code & 0x3FF)))
            else:
                out.append("\\u%04x" % code)
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def _encode_float(value, allow_nan):
    if value != value or value in (float("inf"), float("-inf")):
        if not allow_nan:
            raise ValueError("Out of range float values are not JSON compliant")
        return "NaN" if value != value else ("Infinity" if value > 0 else "-Infinity")
    return repr(value)


class _Encoder:
    def __init__(self, skipkeys, ensure_ascii, check_circular, allow_nan, indent, separators, default, sort_keys):
        self.skipkeys = skipkeys
        self.ensure_ascii = ensure_ascii
        self.check_circular = check_circular
        self.allow_nan = allow_nan
        if indent is not None and not isinstance(indent, str):
            indent = " " * indent
        self.indent = indent
        if separators is None:
            separators = (", ", ": ") if indent is None else (",", ": ")
        self.item_separator, self.key_separator = separators
        self.default = default
        self.sort_keys = sort_keys
        self.markers = {}

    def encode(self, o, level):
        if isinstance(o, str):
            return _encode_string(o, self.ensure_ascii)
        if o is None:
            return "null"
        if o is True:
            return "true"
        if o is False:
            return "false"
        if isinstance(o, int):
            return repr(o)
        if isinstance(o, float):
            return _encode_float(o, self.allow_nan)
        if isinstance(o, (list, tuple)):
            marker = self._enter(o)
            parts = [self.encode(v, level + 1) for v in o]
            self._leave(marker)
            return self._container(level, "[", "]", parts)
        if isinstance(o, dict):
            marker = self._enter(o)
            parts = self._members(o, level)
            self._leave(marker)
            return self._container(level, "{", "}", parts)
        if self.default is None:
            raise TypeError(f"Object of type {type(o).__name__} is not JSON serializable")
        marker = self._enter(o)
        text = self.encode(self.default(o), level)
        self._leave(marker)
        return text

    def _members(self, o, level):
        items = []
        for key, value in o.items():
            if isinstance(key, str):
                pass
            elif isinstance(key, float):
                key = _encode_float(key, self.allow_nan)
            elif key is True or key is False or key is None:
                key = {True: "true", False: "false", None: "null"}[key]
            elif isinstance(key, int):
                key = repr(key)
            elif self.skipkeys:
                continue
            else:
                raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")
            items.append((key, value))
        if self.sort_keys:
            items.sort(key=lambda item: item[0])
        return [_encode_string(key, self.ensure_ascii) + self.key_separator + self.encode(value, level + 1)
                for key, value in items]

    def _enter(self, o):
        if not self.check_circular:
            return None
        marker = id(o)
        if marker in self.markers:
            raise ValueError("Circular reference detected")
        self.markers[marker] = o
        return marker

    def _leave(self, marker):
        if marker is not None:
            del self.markers[marker]

    def _container(self, level, open_, close, parts):
        if not parts:
            return open_ + close
        if self.indent is None:
            return open_ + self.item_separator.join(parts) + close
        inner = "\n" + self.indent * (level + 1)
        return open_ + inner + (self.item_separator + inner).join(parts) + "\n" + self.indent * level + close


def dumps(obj, *, skipkeys=False, ensure_ascii=True, check_circular=True, allow_nan=True, cls=None, indent=None,
          separators=None, default=None, sort_keys=False, **kw):
    if cls is not None:
        raise NotImplementedError("json.dumps(cls=...) is not supported by Fusescope yet")
    encoder = _Encoder(skipkeys, ensure_ascii, check_circular, allow_nan, indent, separators, default, sort_keys)
    return encoder.encode(obj, 0)


def dump(obj, fp, **kw):
    fp.write(dumps(obj, **kw))


# ---- decoding ----------------------------------------------------------------------------------


class _Decoder:
    def __init__(self, doc):
        self.doc = doc

    def skip(self, pos):
        while pos < len(self.doc) and self.doc[pos] in _WHITESPACE:
            pos += 1
        return pos

    def value(self, pos):
        doc = self.doc
        c = doc[pos] if pos < len(doc) else ""
        if c == '"':
            return self.string(pos + 1)
        if c == "{":
            return self.object(pos + 1)
        if c == "[":
            return self.array(pos + 1)
        for word, value in (("null", None), ("true", True), ("false", False), ("NaN", float("nan")),
                            ("Infinity", float("inf")), ("-Infinity", float("-inf"))):
            if doc[pos:pos + len(word)] == word:
                return value, pos + len(word)
        return self.number(pos)

    def number(self, pos):
        doc = self.doc
        end = pos
        if end < len(doc) and doc[end] == "-":
            end += 1
        digits = end
        if end < len(doc) and doc[end] == "0":
            end += 1
        else:
            while end < len(doc) and doc[end].isdigit():
                end += 1
        if end == digits:
            raise JSONDecodeError("Expecting value", doc, pos)
        integer = True
        if end + 1 < len(doc) and doc[end] == "." and doc[end + 1].isdigit():
            integer = False
            end += 1
            while end < len(doc) and doc[end].isdigit():
                end += 1
        if end < len(doc) and doc[end] in "eE":
            exponent = end + 1
            if exponent < len(doc) and doc[exponent] in "+-":
                exponent += 1
            if exponent < len(doc) and doc[exponent].isdigit():
                integer = False
                end = exponent
                while end < len(doc) and doc[end].isdigit():
                    end += 1
        text = doc[pos:end]
        return (int(text) if integer else float(text)), end

    def string(self, pos):
        doc = self.doc
        start = pos - 1
        chunks = []
        while True:
            if pos >= len(doc):
                raise JSONDecodeError("Unterminated string starting at", doc, start)
            c = doc[pos]
            if c == '"':
                return "".join(chunks), pos + 1
            if c == "\\":
                if pos + 1 >= len(doc):
                    raise JSONDecodeError("Unterminated string starting at", doc, start)
                escape = doc[pos + 1]
                if escape == "u":
                    code, pos = self.unicode_escape(pos)
                    chunks.append(chr(code))
                    continue
                if escape not in _UNESCAPES:
                    raise JSONDecodeError("Invalid \\escape", doc, pos)
                chunks.append(_UNESCAPES[escape])
                pos += 2
                continue
            if ord(c) < 0x20:
                raise JSONDecodeError("Invalid control character at", doc, pos)
            chunks.append(c)
            pos += 1

    def unicode_escape(self, pos):
        """The code point of the \\uXXXX at pos (a surrogate pair's, with the next), and where it ends."""
        code = self.hex4(pos)
        end = pos + 6
        if 0xD800 <= code <= 0xDBFF and self.doc[end:end + 2] == "\\u":
            low = self.hex4(end)
            if 0xDC00 <= low <= 0xDFFF:
                return 0x10000 + (((code - 0xD800) << 10) | (low - 0xDC00)), end + 6
        return code, end

    def hex4(self, pos):
        digits = self.doc[pos + 2:pos + 6]
        if len(digits) != 4 or any(d not in "0123456789abcdefABCDEF" for d in digits):
            raise JSONDecodeError("Invalid \\uXXXX escape", self.doc, pos + 1)
        code = 0
        for digit in digits.lower():
            code = code * 16 + "0123456789abcdef".index(digit)
        return code

    def object(self, pos):
        doc = self.doc
        result = {}
        pos = self.skip(pos)
        if pos < len(doc) and doc[pos] == "}":
            return result, pos + 1
        while True:
            if pos >= len(doc) or doc[pos] != '"':
                raise JSONDecodeError("Expecting property name enclosed in double quotes", doc, pos)
            key, pos = self.string(pos + 1)
            pos = self.skip(pos)
            if pos >= len(doc) or doc[pos] != ":":
                raise JSONDecodeError("Expecting ':' delimiter", doc, pos)
            pos = self.skip(pos + 1)
            result[key], pos = self.value(pos)
            pos = self.skip(pos)
            if pos < len(doc) and doc[pos] == "}":
                return result, pos + 1
            if pos >= len(doc) or doc[pos] != ",":
                raise JSONDecodeError("Expecting ',' delimiter", doc, pos)
            pos = self.skip(pos + 1)

    def array(self, pos):
        doc = self.doc
        result = []
        pos = self.skip(pos)
        if pos < len(doc) and doc[pos] == "]":
            return result, pos + 1
        while True:
            item, pos = self.value(pos)
            result.append(item)
            pos = self.skip(pos)
            if pos < len(doc) and doc[pos] == "]":
                return result, pos + 1
            if pos >= len(doc) or doc[pos] != ",":
                raise JSONDecodeError("Expecting ',' delimiter", doc, pos)
            pos = self.skip(pos + 1)


def loads(s, **kw):
    if not isinstance(s, str):
        raise TypeError(f"the JSON object must be str, bytes or bytearray, not {type(s).__name__}")
    decoder = _Decoder(s)
    value, end = decoder.value(decoder.skip(0))
    end = decoder.skip(end)
    if end != len(s):
        raise JSONDecodeError("Extra data", s, end)
    return value


def load(fp, **kw):
    return loads(fp.read(), **kw)
