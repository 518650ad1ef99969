"""Writes the schema facts cloud-config-merge validates with, from an installed cloud-init.

    PYTHONPATH=$(bash ../shared/oracle/setup.sh --where 24.4) /usr/bin/python3 scripts/schema/extract.py 24.4 \
        > server/src/engine/schema/data/24.4.json

for each version name (22.4 23.4 24.4 25.1 current), or `node scripts/schema/regen.mjs`, which runs all five. The output keeps, in cloud-init's own key order (the
order its validator walks), only what validation needs: types, enums, formats, patterns, bounds, the
properties / patternProperties / additionalProperties / items / $defs / $ref / allOf / anyOf / oneOf / not
structure, and the deprecated / changed / new flags with their versions. Prose is dropped: `description`,
`default`, `examples`, `label`, `hidden`. Where cloud-init's validator prints a message built from the
schema (a deprecated or changed key), the exact message that version prints is computed here with
cloud-init's own function and stored as `x-deprecatedMessage` / `x-changedMessage`: it is a fact of what
cloud-init prints, and the only text taken over.
"""
import importlib.metadata
import inspect
import json
import sys

from cloudinit.config import schema as ci_schema

VERSIONS = ("22.4", "23.4", "24.4", "25.1", "current")
DROP = {"description", "default", "examples", "label", "hidden", "$schema"}
CONTAINERS = {"properties", "patternProperties", "$defs", "definitions", "dependencies"}


def deprecated_message(node, key):
    """The message the installed cloud-init's validator yields for `key: true` in `node`."""
    if hasattr(ci_schema, "_add_deprecated_changed_or_new_msg"):
        return ci_schema._add_deprecated_changed_or_new_msg(node, annotate=True, filter_key=[key])
    if key == "deprecated":  # 22.4: "DEPRECATED: <description>"
        return ci_schema._add_deprecation_msg(node.get("description"))
    return None


def validates_changed():
    src = inspect.getsource(ci_schema.get_jsonschema_validator)
    return '"changed"' in src


def strip(node, version_has_changed):
    if isinstance(node, list):
        return [strip(v, version_has_changed) for v in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for k, v in node.items():
        if k in DROP:
            continue
        if k in CONTAINERS and isinstance(v, dict):
            out[k] = {name: strip(sub, version_has_changed) for name, sub in v.items()}
        elif k.endswith("_description"):
            continue  # folded into the printed message below
        else:
            out[k] = strip(v, version_has_changed)
    if node.get("deprecated"):
        out["x-deprecatedMessage"] = deprecated_message(node, "deprecated")
    if node.get("changed") and version_has_changed:
        out["x-changedMessage"] = deprecated_message(node, "changed")
    return out


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in VERSIONS:
        sys.exit("usage: extract.py " + "|".join(VERSIONS))
    from cloudinit import version as ci_version
    full = ci_schema.get_schema()
    has_changed = validates_changed()
    boundary = None
    try:
        from cloudinit import features
        boundary = getattr(features, "DEPRECATION_INFO_BOUNDARY", None)
    except ImportError:
        pass
    data = {
        "x-ccm": {
            "cloudInitVersion": sys.argv[1],
            "cloudInit": ci_version.version_string(),
            "jsonschema": importlib.metadata.version("jsonschema"),
            "validatesChanged": has_changed,
            "deprecationInfoBoundary": boundary,
            "note": "Facts extracted by scripts/schema/extract.py from cloud-init's schema; no description prose.",
        },
        "schema": strip(full, has_changed),
    }
    json.dump(data, sys.stdout, indent=None, separators=(",", ":"), ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
