"""Writes the boot-plan facts of one installed cloud-init, as JSON on stdout.

    PYTHONPATH=<that version's tree> /usr/bin/python3 scripts/plan/extract.py VERSION CLOUDCFG_DIR [PACKAGE_ETC]

(or `node scripts/plan/regen.mjs`, which runs it for every version). Everything here is read from the
installed cloud-init, never written by hand:

* `modules`: every `cloudinit/config/cc_*.py` and its `meta` (frequency, distros, activate_by_schema_keys);
* `frequencies`, `allDistros`, `removed`, `renamed`: the lookups `Modules._fixup_modules` / `run_section` use
  (`settings.FREQUENCIES`, `distros.ALL_DISTROS`, `modules.REMOVED_MODULES`, `modules.RENAMED_MODULES`,
  empty where the version has none);
* `keyModules`: which modules read a top-level key (the schema's `$defs` of each `cc_*`, plus activation keys,
  plus the keys a module reads through a helper of `cloudinit/util.py` it calls as `util.f(cfg, ...)`: the
  keys `f` reads from its `cfg` parameter, found with `ast` (`cfg["k"]`, `"k" in cfg`, `cfg.get("k")`,
  `get_cfg_option_*(cfg, "k")`), e.g. update_hostname reads `hostname` and `fqdn` through `get_hostname_fqdn`);
* `builtin`: the builtin config's top-level keys and the values of the keys the plan reads (under a cloud.cfg
  the user gives);
* `variants`: for each rendered cloud.cfg (CLOUDCFG_DIR/<variant>.cfg, made by the oracle's render-cloudcfg.sh
  from that version's own template), the system config `stages.fetch_base_config()` builds from it (builtin
  config + that cloud.cfg, no drop-ins, no kernel command line): its top-level keys, the distro and default user it names, and the
  values of the keys the plan reads (the three module lists, `unverified_modules`, merge specs, `users`, and
  the keys that decide where ssh puts the cloud's keys: `disable_root`, `allow_public_ssh_keys`). PACKAGE_ETC adds
  the variant `debian-package`: a distribution package's own /etc/cloud (cloud.cfg + cloud.cfg.d/*.cfg).

A distro's OS family (`distros.OSFAMILIES`) is not here: scripts/version/extract-distros.py extracts it once.

Lists and key sets that several variants share are stored once (`lists`, `keySets`) and named by index.
"""
import ast
import glob
import importlib
import inspect
import json
import os
import shutil
import sys
import tempfile

PLAN_KEYS = ("cloud_init_modules", "cloud_config_modules", "cloud_final_modules", "unverified_modules",
             "merge_how", "merge_type", "users", "disable_root", "allow_public_ssh_keys")


def main():
    version, cloudcfg_dir = sys.argv[1], sys.argv[2]
    package_etc = sys.argv[3] if len(sys.argv) > 3 else None
    from cloudinit import distros, settings, stages, util
    from cloudinit import version as ci_version
    from cloudinit.config import modules as ci_modules
    from cloudinit.config import schema as ci_schema

    cfgdir = os.path.dirname(importlib.import_module("cloudinit.config").__file__)
    modules = {}
    for f in sorted(glob.glob(os.path.join(cfgdir, "cc_*.py"))):
        name = os.path.basename(f)[:-3]
        meta = getattr(importlib.import_module("cloudinit.config." + name), "meta", None)
        if not isinstance(meta, dict):
            continue
        modules[name] = {
            "frequency": meta.get("frequency"),
            "distros": list(meta.get("distros") or []),
            "activate": sorted(meta.get("activate_by_schema_keys") or []),
        }

    key_modules = {}
    for dn, dd in (ci_schema.get_schema().get("$defs") or {}).items():
        if dn.startswith("cc_"):
            for k in (dd.get("properties") or {}):
                key_modules.setdefault(k, set()).add(dn)
    for name, m in modules.items():
        for k in m["activate"]:
            key_modules.setdefault(k, set()).add(name)

    for name, keys in helper_reads(cfgdir).items():
        for k in keys:
            key_modules.setdefault(k, set()).add(name)

    tmp = tempfile.mkdtemp(prefix="ccm-plan-extract-")
    try:
        lists, keysets, variants = [], [], {}

        def intern(table, value):
            if value not in table:
                table.append(value)
            return table.index(value)

        def base_config(cloud_cfg, confd):
            etc = tempfile.mkdtemp(dir=tmp)
            main_cfg = os.path.join(etc, "cloud.cfg")
            os.makedirs(main_cfg + ".d")
            shutil.copyfile(cloud_cfg, main_cfg)
            for f in confd:
                shutil.copy(f, main_cfg + ".d")
            run_dir = os.path.join(etc, "run")
            os.makedirs(run_dir)
            stages.CLOUD_CONFIG = main_cfg
            if hasattr(stages, "RUN_CLOUD_CONFIG"):
                stages.RUN_CLOUD_CONFIG = os.path.join(run_dir, "cloud.cfg")
            util.read_conf_from_cmdline = lambda cmdline=None: {}
            if "run_dir" in inspect.signature(stages.fetch_base_config).parameters:
                return stages.fetch_base_config(run_dir)
            return stages.fetch_base_config()

        def add(variant, cloud_cfg, confd=()):
            base = base_config(cloud_cfg, list(confd))
            si = base.get("system_info") or {}
            entry = {
                "distro": si.get("distro"),
                "defaultUser": (si.get("default_user") or {}).get("name"),
                "keys": intern(keysets, sorted(str(k) for k in base)),
            }
            values = {}
            for k in PLAN_KEYS:
                if k in base:
                    values[k] = intern(lists, base[k])
            entry["values"] = values
            variants[variant] = entry

        builtin = util.get_builtin_cfg()
        builtin_facts = {"keys": intern(keysets, sorted(str(k) for k in builtin)),
                         "values": {k: intern(lists, builtin[k]) for k in PLAN_KEYS if k in builtin}}
        for f in sorted(glob.glob(os.path.join(cloudcfg_dir, "*.cfg"))):
            add(os.path.basename(f)[:-4], f)
        if package_etc:
            add("debian-package", os.path.join(package_etc, "cloud.cfg"),
                sorted(glob.glob(os.path.join(package_etc, "cloud.cfg.d", "*.cfg"))))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    out = {
        "version": version,
        "cloudInit": ci_version.version_string(),
        "frequencies": list(settings.FREQUENCIES),
        "allDistros": distros.ALL_DISTROS,
        "removed": list(getattr(ci_modules, "REMOVED_MODULES", [])),
        "renamed": dict(getattr(ci_modules, "RENAMED_MODULES", {})),
        "modules": modules,
        "keyModules": {k: sorted(v) for k, v in sorted(key_modules.items())},
        "builtin": builtin_facts,
        "lists": lists,
        "keySets": keysets,
        "variants": variants,
    }
    json.dump(out, sys.stdout, separators=(",", ":"), sort_keys=False)
    sys.stdout.write("\n")


def cfg_reads(fn, param):
    """The constant keys a function reads from its parameter `param` (a config mapping)."""
    keys = set()
    for n in ast.walk(fn):
        if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == param \
                and isinstance(n.slice, ast.Constant) and isinstance(n.slice.value, str):
            keys.add(n.slice.value)
        elif isinstance(n, ast.Compare) and isinstance(n.left, ast.Constant) and isinstance(n.left.value, str) \
                and any(isinstance(o, (ast.In, ast.NotIn)) for o in n.ops) \
                and any(isinstance(c, ast.Name) and c.id == param for c in n.comparators):
            keys.add(n.left.value)
        elif isinstance(n, ast.Call):
            f = n.func
            if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == param \
                    and f.attr == "get" and n.args and isinstance(n.args[0], ast.Constant) \
                    and isinstance(n.args[0].value, str):
                keys.add(n.args[0].value)
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            if name.startswith("get_cfg_option_") and len(n.args) >= 2 and isinstance(n.args[0], ast.Name) \
                    and n.args[0].id == param and isinstance(n.args[1], ast.Constant) \
                    and isinstance(n.args[1].value, str):
                keys.add(n.args[1].value)
    return keys


def helper_reads(cfgdir):
    """Module -> the keys it reads through `util.f(cfg, ...)` helpers whose first parameter is `cfg`."""
    util_py = os.path.join(os.path.dirname(cfgdir), "util.py")
    with open(util_py) as f:
        util_tree = ast.parse(f.read())
    helpers = {}
    for fn in util_tree.body:
        if isinstance(fn, ast.FunctionDef) and fn.args.args and fn.args.args[0].arg == "cfg":
            keys = cfg_reads(fn, "cfg")
            if keys:
                helpers[fn.name] = keys
    out = {}
    for path in sorted(glob.glob(os.path.join(cfgdir, "cc_*.py"))):
        with open(path) as f:
            tree = ast.parse(f.read())
        keys = set()
        for n in ast.walk(tree):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) \
                    and n.func.value.id == "util" and n.func.attr in helpers and n.args \
                    and isinstance(n.args[0], ast.Name) and n.args[0].id == "cfg":
                keys |= helpers[n.func.attr]
        if keys:
            out[os.path.basename(path)[:-3]] = keys
    return out


if __name__ == "__main__":
    main()
