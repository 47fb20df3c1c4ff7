# argparse for Fusescope scripts: ArgumentParser with optional and positional arguments
# (type, default, choices, required, nargs, dest, const, metavar and the actions store,
# store_true/false, store_const, append, count), parsed from a list or sys.argv[1:],
# into a Namespace. A parse error prints "prog: error: ..." to stderr and exits with 2 as
# argparse does; -h prints the arguments and exits with 0.
import sys

SUPPRESS = "==SUPPRESS=="
OPTIONAL = "?"
ZERO_OR_MORE = "*"
ONE_OR_MORE = "+"


class Namespace:
    def __init__(self, **kwargs):
        for name, value in kwargs.items():
            setattr(self, name, value)

    def __repr__(self):
        return "Namespace(" + ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items()) + ")"

    def __eq__(self, other):
        return isinstance(other, Namespace) and vars(self) == vars(other)

    def __contains__(self, key):
        return key in self.__dict__


class ArgumentError(Exception):
    pass


class _Argument:
    def __init__(self, names, action="store", nargs=None, const=None, default=None, type=None, choices=None,
                 required=None, help=None, metavar=None, dest=None):
        self.names = names
        self.optional = names[0].startswith("-")
        if dest is None:
            longs = [n for n in names if n.startswith("--")]
            dest = (longs[0] if longs else names[0]).lstrip("-").replace("-", "_") if self.optional else names[0]
        self.dest, self.action, self.nargs, self.const = dest, action, nargs, const
        self.type, self.choices, self.help, self.metavar = type, choices, help, metavar
        if action == "store_true":
            default = False if default is None else default
            self.nargs, self.const = 0, True
        elif action == "store_false":
            default = True if default is None else default
            self.nargs, self.const = 0, False
        elif action in ("store_const", "count"):
            self.nargs = 0
        self.default = default
        self.required = required if required is not None else (not self.optional and nargs not in ("?", "*"))

    def convert(self, parser, text):
        value = text
        if self.type is not None:
            try:
                value = self.type(text)
            except (TypeError, ValueError):
                name = getattr(self.type, "__name__", repr(self.type))
                parser.error(f"argument {'/'.join(self.names)}: invalid {name} value: {text!r}")
        if self.choices is not None and value not in self.choices:
            options = ", ".join(repr(c) for c in self.choices)
            parser.error(f"argument {'/'.join(self.names)}: invalid choice: {value!r} (choose from {options})")
        return value


class ArgumentParser:
    def __init__(self, prog=None, usage=None, description=None, epilog=None, parents=(), formatter_class=None,
                 prefix_chars="-", fromfile_prefix_chars=None, argument_default=None, conflict_handler="error",
                 add_help=True, allow_abbrev=True, exit_on_error=True):
        self.prog = prog if prog is not None else sys.argv[0].rpartition("/")[2]
        self.description = description
        self._arguments = []
        self._defaults = {}
        for parent in parents:
            self._arguments.extend(parent._arguments)

    def add_argument(self, *names, **options):
        argument = _Argument(list(names), **options)
        self._arguments.append(argument)
        return argument

    def add_argument_group(self, title=None, description=None):
        return self

    def add_mutually_exclusive_group(self, required=False):
        return self

    def set_defaults(self, **kwargs):
        self._defaults.update(kwargs)

    def get_default(self, dest):
        for argument in self._arguments:
            if argument.dest == dest:
                return argument.default
        return self._defaults.get(dest)

    def format_usage(self):
        parts = ["[-h]"]
        for argument in self._arguments:
            shown = argument.metavar or (argument.dest.upper() if argument.optional else argument.dest)
            if argument.nargs == 0:
                parts.append(f"[{argument.names[0]}]")
            elif argument.optional:
                parts.append(f"[{argument.names[0]} {shown}]")
            else:
                parts.append(shown)
        return f"usage: {self.prog} " + " ".join(parts) + "\n"

    def error(self, message):
        sys.stderr.write(self.format_usage() + f"{self.prog}: error: {message}\n")
        raise SystemExit(2)

    def print_help(self, file=None):
        lines = [self.format_usage().rstrip("\n")]
        if self.description:
            lines += ["", self.description]
        lines += ["", "options:", "  -h, --help  show this help message and exit"]
        for argument in self._arguments:
            lines.append("  " + ", ".join(argument.names) + ("  " + argument.help if argument.help else ""))
        print("\n".join(lines), file=file)

    def _find(self, option):
        for argument in self._arguments:
            if option in argument.names:
                return argument
        return None

    def _take(self, argument, values, namespace):
        if argument.action in ("store_true", "store_false", "store_const"):
            setattr(namespace, argument.dest, argument.const)
        elif argument.action == "count":
            setattr(namespace, argument.dest, (getattr(namespace, argument.dest) or 0) + 1)
        elif argument.action == "append":
            current = getattr(namespace, argument.dest)
            setattr(namespace, argument.dest, (list(current) if current else []) + [argument.convert(self, values[0])])
        elif argument.nargs in ("*", "+") or isinstance(argument.nargs, int):
            setattr(namespace, argument.dest, [argument.convert(self, v) for v in values])
        elif not values:
            setattr(namespace, argument.dest, argument.const)
        else:
            setattr(namespace, argument.dest, argument.convert(self, values[0]))

    def _count(self, argument, rest):
        """How many of the following words the argument takes."""
        words = 0
        while words < len(rest) and not (rest[words].startswith("-") and len(rest[words]) > 1):
            words += 1
        if argument.nargs == 0:
            return 0
        if argument.nargs is None:
            return 1
        if argument.nargs == "?":
            return min(words, 1)
        if isinstance(argument.nargs, int):
            return argument.nargs
        return words

    def parse_known_args(self, args=None, namespace=None):
        args = list(sys.argv[1:] if args is None else args)
        namespace = namespace if namespace is not None else Namespace()
        for argument in self._arguments:
            if not hasattr(namespace, argument.dest):
                setattr(namespace, argument.dest, argument.default)
        for dest, value in self._defaults.items():
            if not hasattr(namespace, dest):
                setattr(namespace, dest, value)
        positionals = [a for a in self._arguments if not a.optional]
        seen, extras, i = set(), [], 0
        while i < len(args):
            word = args[i]
            if word in ("-h", "--help"):
                self.print_help()
                raise SystemExit(0)
            if not word.startswith("--") and len(word) > 2 and self._find(word[:2]) is not None:
                # -vv is -v -v; -b8 is -b 8
                rest = "-" + word[2:] if self._find(word[:2]).nargs == 0 else word[2:]
                args[i:i + 1] = [word[:2], rest]
                continue
            if word.startswith("-") and len(word) > 1 and word != "--":
                option, _, inline = word.partition("=")
                argument = self._find(option)
                if argument is None:
                    extras.append(word)
                    i += 1
                    continue
                if inline or "=" in word:
                    values, i = [inline], i + 1
                else:
                    count = self._count(argument, args[i + 1:])
                    values, i = args[i + 1:i + 1 + count], i + 1 + count
                    if len(values) < count or (argument.nargs in (None, "+") and not values):
                        self.error(f"argument {'/'.join(argument.names)}: expected one argument")
                self._take(argument, values, namespace)
                seen.add(argument.dest)
                continue
            if positionals:
                argument = positionals.pop(0)
                count = max(self._count(argument, args[i:]), 1) if argument.nargs not in (None, "?") else 1
                self._take(argument, args[i:i + count], namespace)
                seen.add(argument.dest)
                i += count
            else:
                extras.append(word)
                i += 1
        missing = [a.names[0] if a.optional else a.dest for a in self._arguments if a.required and a.dest not in seen]
        if missing:
            self.error("the following arguments are required: " + ", ".join(missing))
        return namespace, extras

    def parse_args(self, args=None, namespace=None):
        namespace, extras = self.parse_known_args(args, namespace)
        if extras:
            self.error("unrecognized arguments: " + " ".join(extras))
        return namespace
