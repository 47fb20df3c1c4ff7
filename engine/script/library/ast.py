# ast for Fusescope scripts: literal_eval, through the engine's own parser (ast's node
# classes and parse() are not here yet).
import _system


def literal_eval(node_or_string):
    if not isinstance(node_or_string, str):
        raise NotImplementedError("ast.literal_eval of a node is not supported by Fusescope yet; pass the source str")
    return _system.literal_eval(node_or_string)
