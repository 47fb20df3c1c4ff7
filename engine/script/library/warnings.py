# warnings for Fusescope scripts: warn() prints "file:line: Category: message" and the source
# line to stderr, as CPython 3.11 does, once per location under the default filters (which
# hide DeprecationWarning outside __main__); filterwarnings/simplefilter, catch_warnings
# (with record=True) and the "error", "ignore", "always", "default", "once" and "module" actions.
import _system

filters = []
_default_filters = [("default", None, DeprecationWarning, "__main__", 0), ("ignore", None, DeprecationWarning, None, 0),
                    ("ignore", None, PendingDeprecationWarning, None, 0), ("ignore", None, ImportWarning, None, 0),
                    ("ignore", None, ResourceWarning, None, 0)]
filters.extend(_default_filters)
defaultaction = "default"
_shown = set()  # (text, category, line) per module already shown, for the once-per-location actions


class WarningMessage:
    def __init__(self, message, category, filename, lineno, file=None, line=None, source=None):
        self.message = message
        self.category = category
        self.filename = filename
        self.lineno = lineno
        self.file = file
        self.line = line
        self.source = source

    def __str__(self):
        return (f"{{message : {self.message!r}, category : {self.category.__name__!r}, filename : {self.filename!r}, "
                f"lineno : {self.lineno}, line : {self.line!r}}}")


def formatwarning(message, category, filename, lineno, line=None):
    text = f"{filename}:{lineno}: {category.__name__}: {message}\n"
    if line is None:
        line = _system.source_line(filename, lineno)
    line = line.strip()
    if line:
        text += f"  {line}\n"
    return text


def showwarning(message, category, filename, lineno, file=None, line=None):
    text = formatwarning(message, category, filename, lineno, line)
    if file is None:
        _system.write_stderr(text)
    else:
        file.write(text)


def _action_for(text, category, module, lineno):
    for action, message, kind, module_pattern, line in filters:
        if ((message is None or _system.regex_match(message, text, True)) and issubclass(category, kind)
                and (module_pattern is None or _system.regex_match(module_pattern + "$", module, False))
                and (line == 0 or line == lineno)):
            return action
    return defaultaction


def warn(message, category=None, stacklevel=1, source=None, *, skip_file_prefixes=()):
    if isinstance(message, Warning):
        category = type(message)
    if category is None:
        category = UserWarning
    if not (isinstance(category, type) and issubclass(category, Warning)):
        raise TypeError(f"category must be a Warning subclass, not '{type(category).__name__}'")
    filename, lineno, module = _system.caller(stacklevel)
    warn_explicit(message, category, filename, lineno, module, source=source)


def warn_explicit(message, category, filename, lineno, module=None, registry=None, module_globals=None, source=None):
    text = str(message)
    if not isinstance(message, Warning):
        message = category(message)
    action = _action_for(text, category, module or filename, lineno)
    if action == "ignore":
        return
    if action == "error":
        raise message
    key = {"once": (text, category), "module": (text, category, filename)}.get(action, (text, category, filename, lineno))
    if action != "always":
        if key in _shown:
            return
        _shown.add(key)
    showwarning(message, category, filename, lineno)


def _add_filter(entry, append):
    if entry in filters:
        filters.remove(entry)
    if append:
        filters.append(entry)
    else:
        filters.insert(0, entry)
    _shown.clear()


_actions = ("error", "ignore", "always", "default", "module", "once")


def filterwarnings(action, message="", category=Warning, module="", lineno=0, append=False):
    if action not in _actions:
        raise ValueError(f"invalid action: {action!r}")
    _add_filter((action, message or None, category, module or None, lineno), append)


def simplefilter(action, category=Warning, lineno=0, append=False):
    if action not in _actions:
        raise ValueError(f"invalid action: {action!r}")
    _add_filter((action, None, category, None, lineno), append)


def resetwarnings():
    filters.clear()
    _shown.clear()


class catch_warnings:
    def __init__(self, *, record=False, module=None, action=None, category=Warning, lineno=0, append=False):
        self._record = record
        self._filter = None if action is None else (action, category, lineno, append)

    def __enter__(self):
        global showwarning
        self._saved = (list(filters), set(_shown), showwarning)
        if self._filter is not None:
            simplefilter(*self._filter)
        if not self._record:
            return None
        log = []
        showwarning = lambda message, category, filename, lineno, file=None, line=None: log.append(
            WarningMessage(message, category, filename, lineno, file, line))
        return log

    def __exit__(self, *exc_info):
        global showwarning
        saved_filters, saved_shown, showwarning = self._saved
        filters[:] = saved_filters
        _shown.clear()
        _shown.update(saved_shown)
        return False
