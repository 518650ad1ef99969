"""Writes, for one cloud-init version, where its code reads each top-level system config key, as JSON on stdout.

    python3 scripts/system/extract_keys.py VERSION SOURCE PLAN_JSON

(or `node scripts/system/regen.mjs`, which runs it for every version). SOURCE is the version's tree (the
directory holding `cloudinit/`, as `setup.sh --where VERSION` prints it) or its source tarball. The keys
are those the version's own system config carries (PLAN_JSON: server/src/engine/plan/data/VERSION.json,
made by scripts/plan/extract.py): its builtin config and every rendered cloud.cfg variant. A key "is read"
by a module of `cloudinit/` whose code holds the key as a string constant (Python's `ast`, not a text
search: comments and docstrings do not count). Facts only, no text of cloud-init is kept.
"""
import ast
import io
import json
import os
import sys
import tarfile


def sources(root):
    """(path relative to the tree, text) of every cloudinit/**/*.py."""
    if os.path.isdir(root):
        base = os.path.join(root, 'cloudinit')
        for dirpath, _, files in os.walk(base):
            for name in files:
                if name.endswith('.py'):
                    path = os.path.join(dirpath, name)
                    with open(path, encoding='utf-8') as f:
                        yield os.path.relpath(path, root).replace(os.sep, '/'), f.read()
        return
    with tarfile.open(root) as tar:
        for member in tar.getmembers():
            name = member.name.lstrip('./')
            if member.isfile() and name.startswith('cloudinit/') and name.endswith('.py'):
                yield name, io.TextIOWrapper(tar.extractfile(member), encoding='utf-8').read()


def plan_keys(plan):
    return {k for s in plan['keySets'] for k in s}


def constants(text):
    """The string constants of a module's code, docstrings left out."""
    tree = ast.parse(text)
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                docstrings.add(id(first.value))
    return {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings}


# Top-level keys system config commonly carries that no shipped cloud.cfg sets (a drop-in's datasource
# settings, the cache, network config, reporting): kept only where the version's code reads them.
ALSO = {'datasource', 'manual_cache_clean', 'network', 'reporting', 'output'}


def main():
    version, root, plan_json = sys.argv[1:4]
    with open(plan_json, encoding='utf-8') as f:
        plan = json.load(f)
    keys = sorted({k for s in plan['keySets'] for k in s} | ALSO)
    readers = {k: [] for k in keys}
    for path, text in sorted(sources(root)):
        # the tests and the schema command's own tables are not readers of system config
        if path.startswith('cloudinit/tests/'):
            continue
        found = constants(text)
        for k in keys:
            if k in found:
                readers[k].append(path)
    json.dump({'version': version, 'keys': {k: v for k, v in readers.items() if v or k in plan_keys(plan)}}, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write('\n')


main()
