"""Writes the facts of one Subiquity snapshot the autoinstall check needs, as JSON on stdout.

    python3 scripts/autoinstall/extract.py /opt/subiquity-oracle/24.04 > server/src/engine/autoinstall/data/subiquity-24.04.json

(or `python3 scripts/autoinstall/extract.py --all`, which writes every profile of ../shared/oracle's
`setup.sh --subiquity` and the time zones). Read from the snapshot, never written by hand, and facts only
(Subiquity is GPL-3/AGPL-3: no description, no message text is copied):

- `controllers`: SubiquityServer.controllers in order (server.py, by ast), each with its `autoinstall_key`,
  `autoinstall_key_alias` and `autoinstall_default` (the class attribute, looked up along the first base
  as Python finds it);
- `base`: SubiquityServer.base_schema, and `sections`: each key's schema from autoinstall-schema.json (the
  file Subiquity generates from the same code), with every `description`/`title` removed;
- `keyboard`: each layout code of kbds/C.jsonl with its variant codes (no names);
- `reserved`: the first word of each line of reserved-usernames; `defaultGroups`: users-and-groups;
- `checks`: which load-time checks the snapshot's code has (username checks in controllers/identity.py,
  `groups` append/override in models/identity.py, KeyboardModel.validate_setting).
The commit is the one the snapshot's stamp (`.from-subiquity-<profile>-<commit>.tar.gz`) names.
"""
import ast
import json
import os
import sys

DROP = {"description", "title"}
# The cloud-init of each profile's live installer (the oracle's defaults: what the ISOs carry).
LIVE_CLOUD_INIT = {"24.04": "25.1", "26.04": "current", "main": "current"}


def strip(node):
    if isinstance(node, dict):
        return {k: strip(v) for k, v in node.items() if k not in DROP}
    if isinstance(node, list):
        return [strip(v) for v in node]
    return node


def class_attrs(tree):
    out = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        attrs = {}
        for st in node.body:
            if isinstance(st, ast.Assign):
                for t in st.targets:
                    if isinstance(t, ast.Name):
                        attrs[t.id] = st.value
            elif isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.value is not None:
                attrs[st.target.id] = st.value
        bases = [b.id if isinstance(b, ast.Name) else getattr(b, "attr", None) for b in node.bases]
        out[node.name] = (bases, attrs)
    return out


def lookup(classes, cls, attr):
    seen = set()
    while cls in classes and cls not in seen:
        seen.add(cls)
        bases, attrs = classes[cls]
        if attr in attrs:
            return ast.literal_eval(attrs[attr])
        cls = bases[0] if bases else None
    return None


def read(root, rel):
    with open(os.path.join(root, rel), encoding="utf-8") as f:
        return f.read()


def extract(root):
    stamp = [f for f in os.listdir(root) if f.startswith(".from-subiquity-")]
    if not stamp:
        sys.exit("no .from-subiquity-* stamp in %s (run setup.sh --subiquity)" % root)
    name = stamp[0][len(".from-subiquity-"):-len(".tar.gz")]
    profile, commit = name.rsplit("-", 1)
    full = json.loads(read(root, "autoinstall-schema.json"))
    base = None
    names = None
    for node in ast.walk(ast.parse(read(root, "subiquity/server/server.py"))):
        if isinstance(node, ast.ClassDef) and node.name == "SubiquityServer":
            for st in node.body:
                if isinstance(st, ast.Assign) and isinstance(st.targets[0], ast.Name):
                    if st.targets[0].id == "base_schema":
                        base = ast.literal_eval(st.value)
                    elif st.targets[0].id == "controllers":
                        names = ast.literal_eval(st.value)
    classes = {}
    cdir = os.path.join(root, "subiquity/server/controllers")
    for fn in sorted(os.listdir(cdir)):
        if fn.endswith(".py"):
            classes.update(class_attrs(ast.parse(read(cdir, fn))))
    classes.update(class_attrs(ast.parse(read(root, "subiquity/server/controller.py"))))
    controllers = []
    for cname in names:
        cls = cname + "Controller"
        controllers.append({
            "name": cname,
            "key": lookup(classes, cls, "autoinstall_key"),
            "alias": lookup(classes, cls, "autoinstall_key_alias"),
            "default": lookup(classes, cls, "autoinstall_default"),
        })
    sections = {c["key"]: strip(full["properties"][c["key"]]) for c in controllers
                if c["key"] is not None and c["key"] in full["properties"]}
    keyboard = {}
    with open(os.path.join(root, "kbds/C.jsonl"), encoding="utf-8") as f:
        for line in f:
            code, _name, variants = json.loads(line)
            keyboard[code] = [v[0] for v in variants]
    reserved = []
    for line in read(root, "reserved-usernames").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            reserved.append(line.split()[0])
    ident = read(root, "subiquity/server/controllers/identity.py")
    midentity = read(root, "subiquity/models/identity.py")
    return {
        "x-ccm": {
            "profile": profile,
            "subiquity": "canonical/subiquity",
            "commit": commit,
            "liveCloudInit": LIVE_CLOUD_INIT.get(profile, "current"),
            "note": "Facts extracted by scripts/autoinstall/extract.py from a Subiquity snapshot; no description or message text.",
        },
        "controllers": controllers,
        "base": strip(base),
        "sections": sections,
        "keyboard": keyboard,
        "reserved": sorted(set(reserved)),
        "defaultGroups": read(root, "users-and-groups").split(),
        "checks": {
            "usernames": "def validate_username(" in ident and 'raise AutoinstallError(f"{e.error}: {e.username}")' in ident,
            "groups": "cannot combine `groups: append`" in midentity,
            "keyboard": "def validate_setting(" in read(root, "subiquity/models/keyboard.py"),
        },
    }


def timezones(path="/usr/share/zoneinfo/tzdata.zi"):
    """The names `timedatectl list-timezones` lists (systemd reads tzdata.zi: Zone and Link names, and UTC)."""
    zones = {"UTC"}
    version = None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            parts = line.split()
            if line.startswith("# version"):
                version = parts[-1]
            if len(parts) >= 2 and parts[0] in ("Z", "z", "Zone"):
                zones.add(parts[1])
            elif len(parts) >= 3 and parts[0] in ("L", "l", "Link"):
                zones.add(parts[2])
    return {"x-ccm": {"tzdata": version, "note": "Zone and Link names of tzdata.zi (public domain), as timedatectl list-timezones lists them."},
            "zones": sorted(zones)}


def dump(data, path):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, sort_keys=False, separators=(",", ":"))
        f.write("\n")


def main(argv):
    if argv and argv[0] == "--all":
        here = os.path.dirname(os.path.abspath(__file__))
        out = os.path.join(here, "..", "..", "server", "src", "engine", "autoinstall", "data")
        base = os.environ.get("SUBIQUITY_ORACLE_DIR", "/opt/subiquity-oracle")
        for profile in ("24.04", "26.04"):
            dump(extract(os.path.join(base, profile)), os.path.join(out, "subiquity-%s.json" % profile))
        dump(timezones(), os.path.join(out, "timezones.json"))
        return 0
    if len(argv) != 1:
        sys.exit(__doc__)
    json.dump(extract(argv[0]), sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
