# re for Fusescope scripts: CPython's API (compile, search, match, fullmatch, findall,
# finditer, sub, subn, split, escape, Pattern, Match) over the engine's _regex, which
# translates Python's pattern syntax to std::regex and refuses, as re.error, what it cannot
# match as Python does (lookbehind, scoped inline flags, conditionals). Positions count the
# str's indices (its UTF-8 bytes, as str indexes here).
import _regex

A = ASCII = 256
I = IGNORECASE = 2
L = LOCALE = 4
M = MULTILINE = 8
S = DOTALL = 16
U = UNICODE = 32
X = VERBOSE = 64
NOFLAG = 0

_FLAG_NAMES = ((ASCII, "re.ASCII"), (IGNORECASE, "re.IGNORECASE"), (LOCALE, "re.LOCALE"), (MULTILINE, "re.MULTILINE"),
               (DOTALL, "re.DOTALL"), (VERBOSE, "re.VERBOSE"))


class error(Exception):
    def __init__(self, msg, pattern=None, pos=None):
        super().__init__(msg if pos is None else f"{msg} at position {pos}")
        self.msg = msg
        self.pattern = pattern
        self.pos = pos


PatternError = error


class Pattern:
    def __init__(self, pattern, flags):
        if isinstance(flags, Pattern) or not isinstance(flags, int):
            raise TypeError("flags must be an int")
        try:
            groups, groupindex, all_flags = _regex.check(pattern, flags)
        except ValueError as e:  # "<what> at position <n>", as CPython words it
            what, _, position = str(e).rpartition(" at position ")
            if not what or not position.isdigit():
                raise error(str(e), pattern) from None
            raise error(what, pattern, int(position)) from None
        self.pattern = pattern
        self.flags = all_flags if all_flags & ASCII else all_flags | UNICODE
        self.groups = groups
        self.groupindex = groupindex
        self._flags = flags

    def _search(self, string, pos, endpos, mode, not_empty=False):
        if not isinstance(string, str):
            raise TypeError(f"expected string or bytes-like object, got '{type(string).__name__}'")
        if endpos is None or endpos > len(string):
            endpos = len(string)
        spans = _regex.search(self.pattern, self._flags, string, pos, endpos, mode, not_empty)
        return None if spans is None else Match(self, string, pos, endpos, spans)

    def search(self, string, pos=0, endpos=None):
        return self._search(string, pos, endpos, 0)

    def match(self, string, pos=0, endpos=None):
        return self._search(string, pos, endpos, 1)

    def fullmatch(self, string, pos=0, endpos=None):
        return self._search(string, pos, endpos, 2)

    def finditer(self, string, pos=0, endpos=None):
        # As CPython: after an empty match the next may not be empty at the same place.
        after_empty = False
        end = len(string) if endpos is None else min(endpos, len(string))
        while pos <= end:
            m = self._search(string, pos, endpos, 0, after_empty)
            if m is None:
                return
            yield m
            after_empty = m.start() == m.end()
            pos = m.end()

    def findall(self, string, pos=0, endpos=None):
        found = []
        for m in self.finditer(string, pos, endpos):
            if self.groups == 0:
                found.append(m.group())
            elif self.groups == 1:
                found.append(m.group(1) or "")
            else:
                found.append(m.groups(""))
        return found

    def subn(self, repl, string, count=0):
        if not callable(repl):
            template = _parse_template(repl, self)
            repl = lambda m: _expand(template, m)  # noqa: E731
        pieces = []
        last = 0
        n = 0
        for m in self.finditer(string):
            if count and n >= count:
                break
            pieces.append(string[last:m.start()])
            pieces.append(repl(m))
            last = m.end()
            n += 1
        pieces.append(string[last:])
        return "".join(pieces), n

    def sub(self, repl, string, count=0):
        return self.subn(repl, string, count)[0]

    def split(self, string, maxsplit=0):
        pieces = []
        last = 0
        n = 0
        for m in self.finditer(string):
            if maxsplit and n >= maxsplit:
                break
            pieces.append(string[last:m.start()])
            pieces.extend(m.groups())
            last = m.end()
            n += 1
        pieces.append(string[last:])
        return pieces

    def __eq__(self, other):
        return isinstance(other, Pattern) and self.pattern == other.pattern and self.flags == other.flags

    def __hash__(self):
        return hash((self.pattern, self.flags))

    def __repr__(self):
        names = [name for value, name in _FLAG_NAMES if self._flags & value]
        if not names:
            return f"re.compile({self.pattern!r})"
        return f"re.compile({self.pattern!r}, {'|'.join(names)})"


class Match:
    def __init__(self, pattern, string, pos, endpos, spans):
        self.re = pattern
        self.string = string
        self.pos = pos
        self.endpos = endpos
        self._spans = [(spans[i], spans[i + 1]) for i in range(0, len(spans), 2)]
        self.lastindex = None
        last_end = -1
        for index in range(1, len(self._spans)):
            start, end = self._spans[index]
            if start >= 0 and end >= last_end:  # CPython: the last group that closed
                self.lastindex = index
                last_end = end
        self.lastgroup = None
        for name, index in pattern.groupindex.items():
            if index == self.lastindex:
                self.lastgroup = name

    def _index(self, group):
        if isinstance(group, str):
            if group not in self.re.groupindex:
                raise IndexError("no such group")
            return self.re.groupindex[group]
        if not isinstance(group, int) or group < 0 or group >= len(self._spans):
            raise IndexError("no such group")
        return group

    def _text(self, group, default=None):
        start, end = self._spans[self._index(group)]
        return default if start < 0 else self.string[start:end]

    def group(self, *groups):
        if not groups:
            return self._text(0)
        if len(groups) == 1:
            return self._text(groups[0])
        return tuple(self._text(g) for g in groups)

    def __getitem__(self, group):
        return self._text(group)

    def groups(self, default=None):
        return tuple(self._text(g, default) for g in range(1, len(self._spans)))

    def groupdict(self, default=None):
        return {name: self._text(index, default) for name, index in self.re.groupindex.items()}

    def span(self, group=0):
        return self._spans[self._index(group)]

    def start(self, group=0):
        return self._spans[self._index(group)][0]

    def end(self, group=0):
        return self._spans[self._index(group)][1]

    def expand(self, template):
        return _expand(_parse_template(template, self.re), self)

    def __bool__(self):
        return True

    def __repr__(self):
        return f"<re.Match object; span={self.span()!r}, match={self.group()!r}>"


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "a": "\a", "b": "\b", "\\": "\\"}


def _parse_template(template, pattern):
    """A replacement string as a list of literal strs and group indices: \\1, \\g<1>, \\g<name>."""
    parts = []
    literal = ""
    i = 0
    while i < len(template):
        c = template[i]
        if c != "\\":
            literal += c
            i += 1
            continue
        if i + 1 == len(template):
            raise error("bad escape (end of pattern)", template, i)
        e = template[i + 1]
        if e == "g":
            close = template.find(">", i + 3)
            if template[i + 2:i + 3] != "<" or close < 0:
                raise error("missing <" if template[i + 2:i + 3] != "<" else "missing >, unterminated name", template, i + 2)
            name = template[i + 3:close]
            if name.isdigit():
                index = int(name)
            elif name in pattern.groupindex:
                index = pattern.groupindex[name]
            else:
                raise IndexError(f"unknown group name '{name}'")
            if index > pattern.groups:
                raise error(f"invalid group reference {index}", template, i + 3)
            parts.extend([literal, index])
            literal = ""
            i = close + 1
        elif e.isdigit():
            j = i + 1
            while j < len(template) and j < i + 3 and template[j].isdigit():
                j += 1
            index = int(template[i + 1:j])
            if index > pattern.groups:
                raise error(f"invalid group reference {index}", template, i + 1)
            parts.extend([literal, index])
            literal = ""
            i = j
        elif e in _ESCAPES:
            literal += _ESCAPES[e]
            i += 2
        elif e.isalpha():
            raise error(f"bad escape \\{e}", template, i)
        else:
            literal += "\\" + e
            i += 2
    parts.append(literal)
    return parts


def _expand(parts, match):
    return "".join(part if isinstance(part, str) else (match.group(part) or "") for part in parts)


def compile(pattern, flags=0):
    if isinstance(pattern, Pattern):
        if flags:
            raise ValueError("cannot process flags argument with a compiled pattern")
        return pattern
    return Pattern(pattern, flags)


def search(pattern, string, flags=0):
    return compile(pattern, flags).search(string)


def match(pattern, string, flags=0):
    return compile(pattern, flags).match(string)


def fullmatch(pattern, string, flags=0):
    return compile(pattern, flags).fullmatch(string)


def findall(pattern, string, flags=0):
    return compile(pattern, flags).findall(string)


def finditer(pattern, string, flags=0):
    return compile(pattern, flags).finditer(string)


def sub(pattern, repl, string, count=0, flags=0):
    return compile(pattern, flags).sub(repl, string, count)


def subn(pattern, repl, string, count=0, flags=0):
    return compile(pattern, flags).subn(repl, string, count)


def split(pattern, string, maxsplit=0, flags=0):
    return compile(pattern, flags).split(string, maxsplit)


_SPECIAL = "()[]{}?*+-|^$\\.&~# \t\n\r\v\f"  # what CPython's escape() escapes


def escape(pattern):
    return "".join("\\" + c if c in _SPECIAL else c for c in pattern)


def purge():
    pass
