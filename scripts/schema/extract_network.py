"""Writes the network-config schema facts of one installed cloud-init (as extract.py does for cloud-config).

    PYTHONPATH=$CLOUDINIT_PATH /usr/bin/python3 scripts/schema/extract_network.py 24.4

prints {"cloudInit": ..., "v1": SCHEMA|null, "v2": SCHEMA|null}: the JSON schemas `cloud-init schema -t
network-config` validates with (schemas/schema-network-config-v1.json, -v2.json), stripped of prose by
extract.py's own `strip`. A version without a file gets null: 22.4 has neither, 23.4 only v1.
`node scripts/schema/regen-network.mjs` runs it for every version and writes
server/src/engine/schema/data/network.json.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from extract import strip, validates_changed  # noqa: E402  (one copy of what is kept)

from cloudinit.config import schema as ci_schema  # noqa: E402


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: extract_network.py VERSION")
    from cloudinit import version as ci_version
    folder = os.path.join(os.path.dirname(ci_schema.__file__), "schemas")
    has_changed = validates_changed()
    out = {"cloudInit": ci_version.version_string()}
    for name in ("v1", "v2"):
        path = os.path.join(folder, "schema-network-config-%s.json" % name)
        if os.path.exists(path):
            with open(path, encoding="utf-8") as fh:
                out[name] = strip(json.load(fh), has_changed)
        else:
            out[name] = None
    json.dump(out, sys.stdout, indent=None, separators=(",", ":"), ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
