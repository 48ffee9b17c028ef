"""Building blocks for mcpspec's message schemas: protocol versions, a definition table and
small constructors for draft-07 schema fragments.

Every schema file is produced from these helpers so that the versions differ only where a
`v.since(...)` test says they do; a fact changes in one place, not in five hand-edited files.
"""

VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28")

# The first stateless revision: no initialize, per-request _meta, resultType on every result,
# input requests inside results instead of server-to-client requests. Versions from here on are
# "modern" in the specification's words; the ones before are "legacy".
MODERN = "2026-07-28"


class Version:
    def __init__(self, name):
        if name not in VERSIONS:
            raise ValueError(f"unknown protocol version {name!r}")
        self.name = name
        self.index = VERSIONS.index(name)
        self.modern = self.since(MODERN)

    def since(self, name):
        return self.index >= VERSIONS.index(name)

    def before(self, name):
        return not self.since(name)

    def only(self, name):
        return self.name == name


class Definitions:
    """Ordered name -> schema table; refuses duplicates and dangling references."""

    def __init__(self):
        self.table = {}

    def add(self, name, schema):
        if name in self.table:
            raise ValueError(f"definition {name!r} defined twice")
        self.table[name] = schema

    def check_references(self):
        missing = set()

        def walk(node):
            if isinstance(node, dict):
                target = node.get("$ref")
                if isinstance(target, str):
                    name = target.rsplit("/", 1)[-1]
                    if not target.startswith("#/definitions/") or name not in self.table:
                        missing.add(target)
                for value in node.values():
                    walk(value)
            elif isinstance(node, list):
                for value in node:
                    walk(value)

        walk(self.table)
        if missing:
            raise ValueError(f"unresolved references: {sorted(missing)}")


def ref(name):
    return {"$ref": f"#/definitions/{name}"}


def described(desc, schema):
    """A reference with a description. Draft-07 ignores siblings of $ref, which is what we want:
    the description documents, and no allOf wrapper costs a validation pass."""
    return {"$ref": schema["$ref"], "description": desc}


def string(desc=None, **keywords):
    out = {"type": "string"}
    if desc:
        out["description"] = desc
    out.update(keywords)
    return out


def integer(desc=None, **keywords):
    out = {"type": "integer"}
    if desc:
        out["description"] = desc
    out.update(keywords)
    return out


def number(desc=None, **keywords):
    out = {"type": "number"}
    if desc:
        out["description"] = desc
    out.update(keywords)
    return out


def boolean(desc=None):
    out = {"type": "boolean"}
    if desc:
        out["description"] = desc
    return out


def array(items, desc=None, **keywords):
    out = {"type": "array"}
    if desc:
        out["description"] = desc
    out["items"] = items
    out.update(keywords)
    return out


def const(value, desc=None):
    out = {"const": value}
    if desc:
        out["description"] = desc
    return out


def enum(values, desc=None):
    out = {"type": "string", "enum": list(values)}
    if desc:
        out["description"] = desc
    return out


def unit(value):
    """A 0..1 weight (priorities in annotations and model preferences)."""
    return number(value, minimum=0, maximum=1)


def open_object(desc=None):
    """An object whose members are not constrained (capability flags, free-form metadata)."""
    out = {"type": "object"}
    if desc:
        out["description"] = desc
    return out


def map_of(values, desc=None):
    out = {"type": "object"}
    if desc:
        out["description"] = desc
    out["additionalProperties"] = values
    return out


def obj(desc, props, required=()):
    """An open object. Properties whose schema is None are absent in this version."""
    present = {k: s for k, s in props.items() if s is not None}
    out = {"type": "object"}
    if desc:
        out["description"] = desc
    if present:
        out["properties"] = present
    need = [name for name in required if name in present]
    missing = [name for name in required if name not in present]
    if missing:
        raise ValueError(f"required members without a schema: {missing}")
    if need:
        out["required"] = need
    return out


def when(condition, schema):
    return schema if condition else None


def dispatch(key, cases, desc=None, key_type="string"):
    """An object told apart by the constant value of `key` (content blocks, references...).

    Written as an if/then/else chain rather than anyOf so that a broken block is reported against
    the one shape its `key` names, not against every alternative. A chain (not allOf of if/then
    pairs) stops at the first matching case: validators pay per subschema applied, so the common
    cases come first in `cases`.
    """
    out = {"type": "object"}
    if desc:
        out["description"] = desc
    out["required"] = [key]
    out["properties"] = {key: {"type": key_type, "enum": [value for value, _ in cases]}}
    chain = None
    for value, target in reversed(cases):
        step = {"if": {"properties": {key: {"const": value}}}, "then": target}
        if chain is not None:
            step["else"] = chain
        chain = step
    # Without the key every `if` would hold vacuously; `required` above already reports it.
    out["if"] = {"required": [key]}
    out["then"] = chain
    return out
