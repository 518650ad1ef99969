"""Measures which keys and value kinds netplan's parser accepts, for the "api" host model of network-config.

    /usr/bin/python3 scripts/netplan/probe.py > server/src/engine/network/data/netplan.json

cloud-init 24.4+ hands a version 2 network-config to netplan's Python API when it can import it (Ubuntu
23.10 and later). The parser is netplan's C library; this script asks it (Debian 12's libnetplan 0.106,
through ../shared/oracle/netplan-shim, installed by `bash ../shared/oracle/setup.sh --netplan`) about one key
at a time and writes down what it answered, so the model in server/src/engine/network/netplan.ts is
measured, not guessed:
  - every context (the netplan document's root, `network:`, each device type, and each mapping, id-keyed
    mapping or list of mappings below them, found by descending) with the keys it knows, tried from the
    key-like words of the library;
  - for each key, how it answers a scalar, a sequence and a mapping: the exact message of a rejection, or
    what it accepts (a free scalar, a boolean, an unsigned int, a scalar it checks further, a list of
    scalars, a list of mappings, a mapping of known keys, a mapping of ids);
  - which words it takes for a boolean and for an unsigned int.
Nothing of netplan's code or text is copied besides the messages it printed for these probes.
"""
import glob
import json
import multiprocessing
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
SHIM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "oracle", "netplan-shim")
sys.path.insert(0, os.environ.get("NETPLAN_SHIM", SHIM))
import netplan  # noqa: E402
import yaml  # noqa: E402

PREFIX = "Error in network definition: "
ROOT = os.environ.get("NETPLAN_ORACLE_DIR", "/opt/netplan-oracle")


def dump(doc):
    return yaml.dump(doc, indent=4, default_flow_style=False, explicit_start=True, explicit_end=True)


def parse(doc):
    """The first line of netplan's message for this document, without its prefix; None when accepted."""
    d = tempfile.mkdtemp()
    try:
        os.makedirs(d + "/etc/netplan")
        path = d + "/etc/netplan/network-config.yaml"
        with open(path, "w") as f:
            f.write(dump(doc))
        os.chmod(path, 0o600)
        try:
            netplan.Parser().load_yaml_hierarchy(d)
            return None
        except netplan.NetplanParserException as e:
            msg = e.message.split("\n")[0]
            return msg[len(PREFIX):] if msg.startswith(PREFIX) else "!" + msg
    finally:
        shutil.rmtree(d)


def schema_keys(node, out):
    """Every property name of cloud-init's v2 JSON schema (more candidates: netplan knows most of them)."""
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "properties" and isinstance(v, dict):
                out.update(v)
            schema_keys(v, out)
    elif isinstance(node, list):
        for v in node:
            schema_keys(v, out)
    return out


def candidates():
    lib = sorted(glob.glob(os.path.join(ROOT, "usr/lib/*/libnetplan.so.0*")))[-1]
    words = set(subprocess.run(["strings", lib], capture_output=True, text=True).stdout.split())
    # The compiler stores a word that ends another once (`addresses` inside `optional-addresses`): every
    # tail after a dash is a candidate too.
    for w in list(words):
        parts = re.split(r"(?<=[-.])", w)
        words.update("".join(parts[i:]) for i in range(1, len(parts)))
    data = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "server", "src", "engine", "schema", "data", "network.json")
    with open(data) as fh:
        for schema in json.load(fh)["schemas"].values():
            words.update(schema_keys(schema, set()))
    return sorted({w for w in words if re.fullmatch(r"[a-z][a-z0-9-]*[a-z0-9]", w)})


def answer(job):
    doc, w = job
    return w, parse(doc)


# A device of each type that netplan accepts empty-handed (some need a property or two to validate).
DEVICES = {
    "ethernets": {},
    "bonds": {},
    "bridges": {},
    "vlans": {"id": 1, "link": "eth9"},
    "wifis": {"access-points": {"ap": {}}},
    "tunnels": {"mode": "gre", "local": "10.9.9.1", "remote": "10.9.9.2"},
    "modems": {},
    "vrfs": {"table": 100},
}
EXTRA = {"vlans": {"ethernets": {"eth9": {}}}}
PROBE = "zzqx"


def build(path, value, base):
    """`base` with `value` placed at `path` (keys; an int is the only item of a list)."""
    doc = json.loads(json.dumps(base))
    node = doc
    for i, seg in enumerate(path):
        last = i == len(path) - 1
        if isinstance(seg, int):
            node.append(value if last else {})
            node = node[-1]
        else:
            if last:
                node[seg] = value
            else:
                nxt = path[i + 1]
                node.setdefault(seg, [] if isinstance(nxt, int) else {})
                node = node[seg]
    return doc


class Prober:
    def __init__(self, words, pool):
        self.words = words
        self.pool = pool
        self.contexts = {}

    def context(self, name, path, base):
        """The keys netplan knows in the mapping at `path` of `base`."""
        if name in self.contexts:
            return name
        self.contexts[name] = None
        unknown = parse(build(path + [PROBE], "zzz", base))
        if unknown != "unknown key '%s'" % PROBE:
            raise SystemExit("%s: a probe key is not unknown (%r)" % (name, unknown))
        keys = {}
        jobs = [(build(path + [w], "zzz", base), w) for w in self.words]
        for w, r in self.pool.map(answer, jobs, chunksize=16):
            if r == "unknown key '%s'" % w:
                continue
            keys[w] = self.key(name, path + [w], base, r)
        sys.stderr.write("%s: %d keys\n" % (name, len(keys)))
        self.contexts[name] = {"keys": keys}
        return name

    def key(self, ctx, path, base, scalar):
        k = path[-1]
        as_map = parse(build(path, {PROBE: "zzz"}, base))
        as_seq = parse(build(path, [], base))
        info = {}
        if scalar == "expected mapping (check indentation)":
            info["scalar"] = scalar
            info["sequence"] = as_seq
            if ctx == "root" and k == "network":
                info["mapping"] = "network"
            elif ctx == "network" and k in DEVICES:
                info["ids"] = "device:" + k  # measured with a device netplan accepts (main)
            elif as_map == "unknown key '%s'" % PROBE:
                info["mapping"] = self.context("%s.%s" % (ctx, k), path, base)
            else:
                # a mapping of ids (names of access points, passthrough settings...)
                inner = parse(build(path, {PROBE: {PROBE: "zzz"}}, base))
                if as_map == "expected mapping (check indentation)" and inner == "unknown key '%s'" % PROBE:
                    info["ids"] = self.context("%s.%s.*" % (ctx, k), path + [PROBE], base)
                else:
                    info["ids"] = {"scalar": self.scalar(path + [PROBE], base, as_map), "mapping": inner}
        elif scalar == "expected sequence":
            info["scalar"] = scalar
            info["mapping"] = as_map
            item = parse(build(path, ["zzz"], base))
            if item == "expected mapping (check indentation)":
                info["items"] = self.context("%s.%s[]" % (ctx, k), path + [0], base)
            else:
                info["items"] = {"scalar": self.scalar(path + [0], base, item),
                                 "mapping": parse(build(path, [{PROBE: "zzz"}], base)),
                                 "sequence": parse(build(path, [[]], base))}
        else:
            info["scalar"] = self.scalar(path, base, scalar)
            info["mapping"] = as_map
            info["sequence"] = parse(build(path, ["zzz"], base))
        return info

    def scalar(self, path, base, answer):
        """What a scalar `zzz` got: accepted as any text, a boolean, an unsigned int, or checked further."""
        if answer is None:
            return "text"
        if answer == "invalid boolean value 'zzz'":
            return "bool"
        if answer == "invalid unsigned int value 'zzz'":
            return "uint"
        return "checked"


def accepted(path, base, words):
    return [w for w in words if parse(build(path, w, base)) is None]


def main():
    words = candidates()
    sys.stderr.write("%d candidate keys\n" % len(words))
    p = Prober(words, multiprocessing.Pool(int(os.environ.get("PROBE_JOBS", "3"))))
    for dev, body in DEVICES.items():
        base = {"network": {dev: {"dev0": body}, **EXTRA.get(dev, {})}}
        p.context("device:" + dev, ["network", dev, "dev0"], base)
    p.context("network", ["network"], {"network": {}})
    p.context("root", [], {})
    tries = ["true", "false", "yes", "no", "on", "off", "y", "n", "True", "FALSE", "Yes", "ON", "1", "0", "t", "f", "",
             "null", "-1", "00", "007", "1500", "+5", "0x10", "1.5", "1e3", " 5", "4294967295", "4294967296",
             "18446744073709551615", "18446744073709551616", "99999999999999999999999"]
    eth = {"network": {"ethernets": {"dev0": {}}}}
    out = {
        "note": "Measured by scripts/netplan/probe.py from libnetplan 0.106 (Debian 12) through netplan-shim: which keys and value kinds netplan's parser accepts. Messages are netplan's, as it printed them.",
        "prefix": PREFIX,
        "bool": accepted(["network", "ethernets", "dev0", "dhcp4"], eth, tries),
        "uint": accepted(["network", "ethernets", "dev0", "mtu"], eth, tries),
        "tries": tries,
        "contexts": p.contexts,
    }
    json.dump(out, sys.stdout, indent=None, separators=(",", ":"), sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
