# os.path for Fusescope scripts (CPython's posixpath): joining and splitting paths as text,
# and what is at a path (exists, isfile, isdir) through the engine's _system module.
import _system

sep = "/"


def join(a, *parts):
    path = a
    for part in parts:
        if part.startswith("/"):
            path = part
        elif not path or path.endswith("/"):
            path += part
        else:
            path += "/" + part
    return path


def split(p):
    i = p.rfind("/") + 1
    head, tail = p[:i], p[i:]
    if head and head != "/" * len(head):
        head = head.rstrip("/")
    return head, tail


def basename(p):
    return p[p.rfind("/") + 1:]


def dirname(p):
    return split(p)[0]


def splitext(p):
    dot = p.rfind(".")
    slash = p.rfind("/")
    if dot > slash + 1 and p[slash + 1:dot].strip(".") != "":
        return p[:dot], p[dot:]
    return p, ""


def isabs(p):
    return p.startswith("/")


def normpath(path):
    if path == "":
        return "."
    initial = 2 if path.startswith("//") and not path.startswith("///") else (1 if path.startswith("/") else 0)
    parts = []
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part != ".." or (not initial and not parts) or (parts and parts[-1] == ".."):
            parts.append(part)
        elif parts:
            parts.pop()
    path = "/".join(parts)
    if initial:
        path = "/" * initial + path
    return path or "."


def abspath(path):
    return normpath(path if isabs(path) else join(_system.getcwd(), path))


def relpath(path, start="."):
    path_parts = [p for p in abspath(path).split("/") if p]
    start_parts = [p for p in abspath(start).split("/") if p]
    common = 0
    while common < min(len(path_parts), len(start_parts)) and path_parts[common] == start_parts[common]:
        common += 1
    parts = [".."] * (len(start_parts) - common) + path_parts[common:]
    return join(*parts) if parts else "."


def exists(path):
    return _system.kind(path) is not None


def isfile(path):
    return _system.kind(path) == "file"


def isdir(path):
    return _system.kind(path) == "dir"


def expanduser(path):
    if not path.startswith("~"):
        return path
    import os
    return os.environ.get("HOME", "~") + path[1:]
