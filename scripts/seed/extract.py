"""Writes which meta-data keys one installed cloud-init's NoCloud datasource reads, as JSON on stdout.

    PYTHONPATH=<that version's tree> /usr/bin/python3 scripts/seed/extract.py

(or `node scripts/seed/regen.mjs`, which runs it for every version and writes
server/src/engine/seed/data/metaDataKeys.json). Read from the installed code, never written by hand:
every method `DataSourceNoCloud` has (each name resolved along its MRO, as Python resolves it, so a base
method NoCloud overrides does not count) is parsed, and each read of a top-level meta-data key is kept:
`self.metadata.get(K)`, `self.metadata[K]`, `K in self.metadata` (and `mydata["meta-data"]` in place of
`self.metadata`, as `_get_data` writes it), K a string or a module constant naming one
(`METADATA_CLOUD_NAME_KEY`). Output: `{"keys": {KEY: ["Class.method", ...]}}`, sorted.
"""
import ast
import inspect
import json
import sys
import textwrap


def is_metadata(node):
    """`self.metadata`, or `<name>["meta-data"]`."""
    if isinstance(node, ast.Attribute) and node.attr == "metadata" and isinstance(node.value, ast.Name) and node.value.id == "self":
        return True
    if isinstance(node, ast.Subscript):
        index = node.slice.value if isinstance(node.slice, ast.Index) else node.slice  # ast.Index: Python < 3.9
        return isinstance(index, ast.Constant) and index.value == "meta-data"
    return False


def key_of(node, module):
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name) and isinstance(getattr(module, node.id, None), str):
        return getattr(module, node.id)
    return None


def keys_read(function, module):
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    found = set()
    for node in ast.walk(tree):
        key = None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" and is_metadata(node.func.value) and node.args:
            key = key_of(node.args[0], module)
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and is_metadata(node.value):
            index = node.slice.value if isinstance(node.slice, ast.Index) else node.slice
            key = key_of(index, module)
        elif isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)) and is_metadata(node.comparators[0]):
            key = key_of(node.left, module)
        if key is not None and key != "meta-data":
            found.add(key)
    return found


def main():
    from cloudinit.sources import DataSourceNoCloud as nocloud

    cls = nocloud.DataSourceNoCloud
    keys = {}
    for name in sorted(dir(cls)):
        owner = next((c for c in cls.__mro__ if name in c.__dict__), None)
        if owner is None or not owner.__module__.startswith("cloudinit."):
            continue
        member = owner.__dict__[name]
        function = member.fget if isinstance(member, property) else member
        if not inspect.isfunction(function):
            continue
        module = sys.modules[owner.__module__]
        for key in keys_read(function, module):
            keys.setdefault(key, set()).add(f"{owner.__name__}.{name}")
    json.dump({"keys": {k: sorted(v) for k, v in sorted(keys.items())}}, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
