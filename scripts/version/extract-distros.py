"""Writes, per cloud-init version, the distro names cloud-init knows and the cloud.cfg variants its template renders, as JSON.

    python3 scripts/version/extract-distros.py ../shared/oracle > server/src/engine/version/data/distros.json

For each version (22.4 23.4 24.4 25.1 current) the installed tree comes from `setup.sh --where VERSION` in the
oracle folder; the cloud.cfg render script from that folder's versions/ tarballs. Read with Python's `ast`
(nothing is imported or run):
  distros   the modules of cloudinit/distros/ that define a class `Distro`: the names `system_info.distro`
            may take (cloud-init imports `cloudinit.distros.<name>` and uses its `Distro`)
  dashes    whether `distros.fetch(name)` retries with `name.replace("-", "_")` when no module has the name
            (current: `raspberry-pi-os`, the name its cloud.cfg and OSFAMILIES give, finds raspberry_pi_os.py)
  families  `OSFAMILIES` of cloudinit/distros/__init__.py: OS family -> the distro names in it (the one copy:
            the image profiles and the boot plan pick a distro's cloud.cfg variant by it)
  variants  the `VARIANTS` list of tools/render-template (tools/render-cloudcfg in 22.4.2): the cloud.cfg
            variants the template renders
Only names are taken over.
"""
import ast
import json
import subprocess
import sys
import tarfile
from pathlib import Path

VERSIONS = ["22.4", "23.4", "24.4", "25.1", "current"]


def literal(source, name):
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return ast.literal_eval(node.value)
    raise SystemExit(f"no {name} found")


def distros(tree):
    folder = Path(tree, "cloudinit", "distros")
    names = []
    for module in sorted(folder.glob("*.py")):
        if module.stem == "__init__":
            continue
        tree_ = ast.parse(module.read_text())
        if any(isinstance(n, ast.ClassDef) and n.name == "Distro" for n in tree_.body):
            names.append(module.stem)
    init = (folder / "__init__.py").read_text()
    families = literal(init, "OSFAMILIES")
    return sorted(names), {k: list(v) for k, v in sorted(families.items())}, fetch_retries_dashes(init)


def fetch_retries_dashes(source):
    """`fetch` calls `<name>.replace("-", "_")`: a dashed name finds the module with underscores."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and node.name == "fetch":
            for call in ast.walk(node):
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "replace" \
                        and [a.value for a in call.args if isinstance(a, ast.Constant)] == ["-", "_"]:
                    return True
    return False


def render_script(oracle, version):
    found = sorted(Path(oracle, "versions").glob("cloudcfg-src-22.4.*.tar.gz" if version == "22.4" else "cloudcfg-src-26.*.tar.gz" if version == "current" else f"cloud-init-{version}.*.tar.gz"))
    if not found:
        raise SystemExit(f"{version}: no source tarball in {oracle}/versions")
    with tarfile.open(found[-1]) as tar:
        for member in tar.getmembers():
            if member.name.endswith(("/tools/render-template", "/tools/render-cloudcfg")):
                return tar.extractfile(member).read().decode()
    raise SystemExit(f"{found[-1]}: no render script")


def main(oracle):
    out = {}
    for version in VERSIONS:
        tree = subprocess.run(["bash", str(Path(oracle, "setup.sh")), "--where", version], check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1]
        names, families, dashes = distros(tree)
        out[version] = {"distros": names, "dashes": dashes, "families": families, "variants": sorted(literal(render_script(oracle, version), "VARIANTS"))}
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: extract-distros.py ORACLE_DIR")
    main(sys.argv[1])
