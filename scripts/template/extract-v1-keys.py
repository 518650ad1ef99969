"""Writes the keys of cloud-init's standardized `v1` instance data, per version, as JSON.

    python3 scripts/template/extract-v1-keys.py \
        22.4=$(bash ../shared/oracle/setup.sh --where 22.4) 23.4=$(bash ../shared/oracle/setup.sh --where 23.4) \
        24.4=$(bash ../shared/oracle/setup.sh --where 24.4) 25.1=$(bash ../shared/oracle/setup.sh --where 25.1) \
        current=$(bash ../shared/oracle/setup.sh --where current) \
        > server/src/engine/template/data/v1Keys.json

Every datasource writes the same `v1` keys into instance-data.json (DataSource._get_standardized_metadata in
cloudinit/sources/__init__.py); only their values differ from cloud to cloud. The keys are read from that
method's source with Python's `ast` (nothing is imported or run): the string keys of the dict literal
stored under "v1", in cloud-init's order. Only the key names are taken over.
"""
import ast
import json
import sys
from pathlib import Path


def v1_keys(tree_root):
    source = Path(tree_root, "cloudinit", "sources", "__init__.py").read_text()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and node.name == "_get_standardized_metadata":
            for inner in ast.walk(node):
                if not isinstance(inner, ast.Dict):
                    continue
                for key, value in zip(inner.keys, inner.values):
                    if isinstance(key, ast.Constant) and key.value == "v1" and isinstance(value, ast.Dict):
                        return [k.value for k in value.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
    raise SystemExit(f"{tree_root}: no v1 dict in _get_standardized_metadata")


def main(args):
    out = {}
    for arg in args:
        version, _, path = arg.partition("=")
        if not path:
            raise SystemExit("usage: extract-v1-keys.py VERSION=CLOUDINIT_TREE ...")
        out[version] = v1_keys(path)
    json.dump(out, sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])
