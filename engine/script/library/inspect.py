# inspect for Fusescope scripts: signature() with Signature and Parameter as CPython's,
# the is*() predicates, getmembers, unwrap, getdoc and cleandoc. A def's parameters come
# from its __code__, __defaults__ and __kwdefaults__, as CPython's do.
from collections import OrderedDict


def _a_function():
    pass


class _AClass:
    def method(self):
        pass


_FunctionType = type(_a_function)
_MethodType = type(_AClass().method)
_BuiltinType = type(len)

_CO_VARARGS, _CO_VARKEYWORDS, _CO_GENERATOR = 0x4, 0x8, 0x20


def isclass(object):
    return isinstance(object, type)


def isfunction(object):
    return isinstance(object, _FunctionType)


def ismethod(object):
    return isinstance(object, _MethodType)


def isbuiltin(object):
    return isinstance(object, _BuiltinType)


def isroutine(object):
    return isfunction(object) or ismethod(object) or isbuiltin(object)


def ismodule(object):
    return type(object).__name__ == "module"


def isgeneratorfunction(object):
    object = _unwrap_method(object)
    return isfunction(object) and bool(object.__code__.co_flags & _CO_GENERATOR)


def iscoroutinefunction(object):
    return False


def isabstract(object):
    return isclass(object) and bool(getattr(object, "__abstractmethods__", False))


def getmembers(object, predicate=None):
    results = []
    for key in dir(object):
        try:
            value = getattr(object, key)
        except AttributeError:
            continue
        if predicate is None or predicate(value):
            results.append((key, value))
    results.sort(key=lambda pair: pair[0])
    return results


def unwrap(func, *, stop=None):
    seen = {id(func)}
    while hasattr(func, "__wrapped__") and not (stop is not None and stop(func)):
        func = func.__wrapped__
        if id(func) in seen:
            raise ValueError("wrapper loop when unwrapping {!r}".format(func))
        seen.add(id(func))
    return func


def cleandoc(doc):
    lines = doc.expandtabs().split("\n")
    margin = None
    for line in lines[1:]:
        content = len(line.lstrip())
        if content:
            indent = len(line) - content
            margin = indent if margin is None else min(margin, indent)
    lines[0] = lines[0].lstrip()
    if margin is not None:
        lines[1:] = [line[margin:] for line in lines[1:]]
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    return "\n".join(lines)


def getdoc(object):
    doc = getattr(object, "__doc__", None)
    if not isinstance(doc, str):
        return None
    return cleandoc(doc)


def _unwrap_method(object):
    return object.__func__ if ismethod(object) else object


class _empty:
    """Marker object for Signature.empty and Parameter.empty."""


class _void:
    """A replace() argument not given."""


class _ParameterKind:
    def __init__(self, value, name, description):
        self.value, self.name, self.description = value, name, description

    def __int__(self):
        return self.value

    def __eq__(self, other):
        return self is other or (isinstance(other, int) and other == self.value)

    def __hash__(self):
        return hash(self.value)

    def __lt__(self, other):
        return self.value < int(other)

    def __le__(self, other):
        return self.value <= int(other)

    def __gt__(self, other):
        return self.value > int(other)

    def __ge__(self, other):
        return self.value >= int(other)

    def __str__(self):
        return self.name

    def __repr__(self):
        return f"<_ParameterKind.{self.name}: {self.value}>"


_POSITIONAL_ONLY = _ParameterKind(0, "POSITIONAL_ONLY", "positional-only")
_POSITIONAL_OR_KEYWORD = _ParameterKind(1, "POSITIONAL_OR_KEYWORD", "positional or keyword")
_VAR_POSITIONAL = _ParameterKind(2, "VAR_POSITIONAL", "variadic positional")
_KEYWORD_ONLY = _ParameterKind(3, "KEYWORD_ONLY", "keyword-only")
_VAR_KEYWORD = _ParameterKind(4, "VAR_KEYWORD", "variadic keyword")


class Parameter:
    POSITIONAL_ONLY = _POSITIONAL_ONLY
    POSITIONAL_OR_KEYWORD = _POSITIONAL_OR_KEYWORD
    VAR_POSITIONAL = _VAR_POSITIONAL
    KEYWORD_ONLY = _KEYWORD_ONLY
    VAR_KEYWORD = _VAR_KEYWORD
    empty = _empty

    def __init__(self, name, kind, *, default=_empty, annotation=_empty):
        if not isinstance(kind, _ParameterKind):
            raise ValueError(f"value {kind!r} is not a valid Parameter.kind")
        if default is not _empty and kind in (_VAR_POSITIONAL, _VAR_KEYWORD):
            raise ValueError(f"{kind.description} parameters cannot have default values")
        if not isinstance(name, str):
            raise TypeError(f"name must be a str, not a {type(name).__name__}")
        if not name.isidentifier():
            raise ValueError(f"{name!r} is not a valid parameter name")
        self._name, self._kind, self._default, self._annotation = name, kind, default, annotation

    name = property(lambda self: self._name)
    kind = property(lambda self: self._kind)
    default = property(lambda self: self._default)
    annotation = property(lambda self: self._annotation)

    def replace(self, *, name=None, kind=None, default=_void, annotation=_void):
        return Parameter(self._name if name is None else name, self._kind if kind is None else kind,
                         default=self._default if default is _void else default,
                         annotation=self._annotation if annotation is _void else annotation)

    def __str__(self):
        text = self._name
        if self._annotation is not _empty:
            text += ": " + _annotation_text(self._annotation)
        if self._default is not _empty:
            text += (" = " if self._annotation is not _empty else "=") + repr(self._default)
        if self._kind is _VAR_POSITIONAL:
            return "*" + text
        if self._kind is _VAR_KEYWORD:
            return "**" + text
        return text

    def __repr__(self):
        return f'<Parameter "{self}">'

    def __eq__(self, other):
        if not isinstance(other, Parameter):
            return NotImplemented
        return (self._name == other._name and self._kind is other._kind and self._default == other._default
                and self._annotation == other._annotation)

    def __hash__(self):
        return hash((self._name, self._kind.value, self._annotation, self._default))


class _MappingProxy:
    """The read-only view Signature.parameters is (types.MappingProxyType in CPython)."""

    def __init__(self, mapping):
        self._mapping = mapping

    def __getitem__(self, key):
        return self._mapping[key]

    def __contains__(self, key):
        return key in self._mapping

    def __iter__(self):
        return iter(self._mapping)

    def __len__(self):
        return len(self._mapping)

    def keys(self):
        return self._mapping.keys()

    def values(self):
        return self._mapping.values()

    def items(self):
        return self._mapping.items()

    def get(self, key, default=None):
        return self._mapping.get(key, default)

    def __repr__(self):
        return f"mappingproxy({self._mapping!r})"


def _annotation_text(annotation):
    if isinstance(annotation, type):
        return annotation.__name__ if annotation.__module__ == "builtins" else annotation.__qualname__
    return repr(annotation)


class Signature:
    empty = _empty

    def __init__(self, parameters=None, *, return_annotation=_empty, __validate_parameters__=True):
        params = OrderedDict()
        if parameters is not None:
            previous = _POSITIONAL_ONLY
            seen_default = False
            for param in parameters:
                if __validate_parameters__:
                    if param.kind < previous:
                        raise ValueError(f"wrong parameter order: {previous.description} parameter before "
                                         f"{param.kind.description} parameter")
                    previous = param.kind
                    if param.kind in (_POSITIONAL_ONLY, _POSITIONAL_OR_KEYWORD):
                        if param.default is _empty:
                            if seen_default:
                                raise ValueError("non-default argument follows default argument")
                        else:
                            seen_default = True
                    if param.name in params:
                        raise ValueError(f"duplicate parameter name: {param.name!r}")
                params[param.name] = param
        self._parameters = params
        self._return_annotation = return_annotation

    parameters = property(lambda self: _MappingProxy(self._parameters))
    return_annotation = property(lambda self: self._return_annotation)

    def replace(self, *, parameters=_void, return_annotation=_void):
        if parameters is _void:
            parameters = self._parameters.values()
        if return_annotation is _void:
            return_annotation = self._return_annotation
        return Signature(parameters, return_annotation=return_annotation)

    def _bind(self, args, kwargs, partial):
        arguments = {}
        params = list(self._parameters.values())
        index = 0
        for param in params:
            if param.kind is _VAR_POSITIONAL:
                if index < len(args):
                    arguments[param.name] = tuple(args[index:])
                    index = len(args)
                continue
            if param.kind in (_KEYWORD_ONLY, _VAR_KEYWORD):
                break
            if index < len(args):
                if param.kind is not _POSITIONAL_ONLY and param.name in kwargs:
                    raise TypeError(f"multiple values for argument {param.name!r}")
                arguments[param.name] = args[index]
                index += 1
        if index < len(args):
            raise TypeError("too many positional arguments")
        kwargs = dict(kwargs)
        var_keyword = None
        for param in params:
            if param.kind is _VAR_KEYWORD:
                var_keyword = param
                continue
            if param.name in arguments or param.kind is _VAR_POSITIONAL:
                continue
            if param.kind is not _POSITIONAL_ONLY and param.name in kwargs:
                arguments[param.name] = kwargs.pop(param.name)
            elif not partial and param.default is _empty:
                raise TypeError(f"missing a required argument: {param.name!r}")
        if kwargs:
            if var_keyword is None:
                raise TypeError(f"got an unexpected keyword argument {next(iter(kwargs))!r}")
            arguments[var_keyword.name] = kwargs
        return BoundArguments(self, {p.name: arguments[p.name] for p in params if p.name in arguments})

    def bind(self, *args, **kwargs):
        return self._bind(args, kwargs, False)

    def bind_partial(self, *args, **kwargs):
        return self._bind(args, kwargs, True)

    def __str__(self):
        parts = []
        slash_after = False
        star_needed = True
        for param in self._parameters.values():
            if param.kind is _POSITIONAL_ONLY:
                slash_after = True
            elif slash_after:
                parts.append("/")
                slash_after = False
            if param.kind is _VAR_POSITIONAL:
                star_needed = False
            elif param.kind is _KEYWORD_ONLY and star_needed:
                parts.append("*")
                star_needed = False
            parts.append(str(param))
        if slash_after:
            parts.append("/")
        text = "(" + ", ".join(parts) + ")"
        if self._return_annotation is not _empty:
            text += " -> " + _annotation_text(self._return_annotation)
        return text

    def __repr__(self):
        return f"<Signature {self}>"

    def __eq__(self, other):
        if not isinstance(other, Signature):
            return NotImplemented
        return (self._return_annotation == other._return_annotation
                and list(self._parameters.items()) == list(other._parameters.items()))


class BoundArguments:
    def __init__(self, signature, arguments):
        self.signature = signature
        self.arguments = arguments

    @property
    def args(self):
        args = []
        for name, param in self.signature._parameters.items():
            if param.kind in (_VAR_KEYWORD, _KEYWORD_ONLY) or name not in self.arguments:
                break
            if param.kind is _VAR_POSITIONAL:
                args.extend(self.arguments[name])
            else:
                args.append(self.arguments[name])
        return tuple(args)

    @property
    def kwargs(self):
        kwargs = {}
        started = False
        for name, param in self.signature._parameters.items():
            if not started:
                if param.kind in (_VAR_KEYWORD, _KEYWORD_ONLY) or name not in self.arguments:
                    started = True
                else:
                    continue
            if name not in self.arguments:
                continue
            if param.kind is _VAR_KEYWORD:
                kwargs.update(self.arguments[name])
            else:
                kwargs[name] = self.arguments[name]
        return kwargs

    def apply_defaults(self):
        arguments = {}
        for name, param in self.signature._parameters.items():
            if name in self.arguments:
                arguments[name] = self.arguments[name]
            elif param.default is not _empty:
                arguments[name] = param.default
            elif param.kind is _VAR_POSITIONAL:
                arguments[name] = ()
            elif param.kind is _VAR_KEYWORD:
                arguments[name] = {}
        self.arguments = arguments

    def __repr__(self):
        return "<BoundArguments (" + ", ".join(f"{k}={v!r}" for k, v in self.arguments.items()) + ")>"


def _signature_from_function(func):
    code = func.__code__
    positional = code.co_argcount
    names = code.co_varnames
    keyword_only = code.co_kwonlyargcount
    defaults = func.__defaults__ or ()
    kwdefaults = func.__kwdefaults__ or {}
    first_default = positional - len(defaults)
    params = []
    for i in range(positional):
        kind = _POSITIONAL_ONLY if i < code.co_posonlyargcount else _POSITIONAL_OR_KEYWORD
        default = defaults[i - first_default] if i >= first_default else _empty
        params.append(Parameter(names[i], kind, default=default))
    index = positional + keyword_only
    if code.co_flags & _CO_VARARGS:
        params.append(Parameter(names[index], _VAR_POSITIONAL))
        index += 1
    for name in names[positional:positional + keyword_only]:
        params.append(Parameter(name, _KEYWORD_ONLY, default=kwdefaults.get(name, _empty)))
    if code.co_flags & _CO_VARKEYWORDS:
        params.append(Parameter(names[index], _VAR_KEYWORD))
    return Signature(params, __validate_parameters__=False)


def _without_first(sig):
    params = list(sig.parameters.values())
    if not params or params[0].kind in (_VAR_KEYWORD, _KEYWORD_ONLY):
        raise ValueError("invalid method signature")
    if params[0].kind is _VAR_POSITIONAL:
        return sig
    return sig.replace(parameters=params[1:])


def _class_attribute(cls, name):
    for base in cls.__mro__:
        if base is object:
            return None
        if name in base.__dict__:
            return base.__dict__[name]
    return None


def _signature_of(obj, follow_wrapped):
    if not callable(obj):
        raise TypeError(f"{obj!r} is not a callable object")
    if ismethod(obj):
        return _without_first(_signature_of(obj.__func__, follow_wrapped))
    if follow_wrapped:
        obj = unwrap(obj, stop=lambda f: hasattr(f, "__signature__"))
        if ismethod(obj):
            return _signature_of(obj, follow_wrapped)
    sig = getattr(obj, "__signature__", None)
    if sig is not None:
        if not isinstance(sig, Signature):
            raise TypeError(f"unexpected object {sig!r} in __signature__ attribute")
        return sig
    if isfunction(obj):
        return _signature_from_function(obj)
    if isclass(obj):
        for name in ("__new__", "__init__"):
            method = _class_attribute(obj, name)
            if method is not None:
                if isinstance(method, staticmethod):
                    method = method.__func__
                return _without_first(_signature_of(method, follow_wrapped))
        return Signature()
    if isbuiltin(obj):
        raise ValueError(f"no signature found for builtin {obj!r}")
    call = _class_attribute(type(obj), "__call__")
    if call is not None:
        return _without_first(_signature_of(call, follow_wrapped))
    raise ValueError(f"callable {obj!r} is not supported by signature")


def signature(obj, *, follow_wrapped=True, globals=None, locals=None, eval_str=False):
    return _signature_of(obj, follow_wrapped)
