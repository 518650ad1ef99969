"""Measures what netplan's parser accepts, for the "api" host model of network-config.

    /usr/bin/python3 scripts/netplan/probe.py --netplan 0.106 > server/src/engine/network/data/netplan-0.106.json
    /usr/bin/python3 scripts/netplan/probe.py --netplan 1.1 > server/src/engine/network/data/netplan-1.1.json
    /usr/bin/python3 scripts/netplan/probe.py --netplan 1.1 --routes server/src/engine/network/data/netplan-1.1.json
        (only the route facts, measured again into the file)

cloud-init 24.4+ hands a version 2 network-config to netplan's Python API when it can import it (Ubuntu
23.10 and later, Debian 13). The parser is netplan's C library; this script asks it about one key or value
at a time and writes down what it answered, so the model in server/src/engine/network/netplan.ts is
measured, not guessed. Two netplans are measured, as the oracle installs them:
  - 0.106: Debian 12's libnetplan 0.106 through ../shared/oracle/netplan-shim (`setup.sh --netplan`);
  - 1.1: Debian 13's netplan 1.1.2 and its own Python package (`setup.sh --netplan 1.1`), run under the
    Debian 13 loader and libraries it needs (the script re-runs itself there).
What is measured:
  - every context (the netplan document's root, `network:`, each device type, and each mapping, id-keyed
    mapping or list of mappings below them, found by descending) with the keys it knows, tried from the
    words of the library (`strings -n 2`, with the tails the linker shares: `mark` of `fwmark`);
  - for each key, how it answers a scalar, a sequence and a mapping: the exact message of a rejection, or
    what it accepts (a free scalar, a boolean, an unsigned int, a scalar it checks further, a list of
    scalars, a list of mappings, a mapping of known keys, a mapping of ids, a list of fixed-length lists);
  - the keys a device-type section takes beside its device ids (`ethernets: {renderer: ...}`);
  - for a scalar it checks further: its message for a bad value; what it takes, told from a few samples
    (an IP address, an address with a prefix length, an IPv4 or IPv6 address, a MAC address, with the
    messages for each way a value fails); else, when the values it takes are a few words of the library
    and nothing else, those words (an enumeration: `renderer`, `version`, `mode`...), whether it reads
    them without regard to case, or by their leading number;
  - the characters that make a device id or a `match: name` an invalid name;
  - which words it takes for a boolean and for an unsigned int;
  - what it checks of a route and a routing-policy rule as a whole (`routes`: route_facts()).
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
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.join(HERE, "..", "..")
SHARED = os.environ.get("ORACLE_DIR", os.path.join(REPO, "..", "shared", "oracle"))
if not os.path.isdir(SHARED):
    SHARED = "/work/shared/oracle"

VERSION = sys.argv[sys.argv.index("--netplan") + 1] if "--netplan" in sys.argv else "0.106"
if VERSION not in ("0.106", "1.1"):
    raise SystemExit("--netplan takes 0.106 or 1.1")
ROOT = (os.environ.get("NETPLAN_ORACLE_DIR", "/opt/netplan-oracle") if VERSION == "0.106"
        else os.environ.get("NETPLAN11_ORACLE_DIR", "/opt/netplan-oracle-1.1"))

if VERSION == "1.1" and not os.environ.get("PROBE_IN_RUNTIME"):
    # libnetplan1 needs Debian 13's glibc: run this script again under the loader the install carries.
    lds = sorted(glob.glob(os.path.join(ROOT, "usr/lib/*-linux-gnu/ld-linux*.so.*")))
    if not lds:
        raise SystemExit("netplan 1.1 is not installed at %s: bash %s/setup.sh --netplan 1.1" % (ROOT, SHARED))
    env = dict(os.environ, PROBE_IN_RUNTIME="1")
    os.execve(lds[0], [lds[0], "--library-path", os.path.dirname(lds[0]), "/usr/bin/python3", os.path.abspath(__file__)] + sys.argv[1:], env)

sys.path.insert(0, os.path.join(ROOT, "usr/lib/python3/dist-packages") if VERSION == "1.1"
                else os.environ.get("NETPLAN_SHIM", os.path.join(SHARED, "netplan-shim")))
import netplan  # noqa: E402
import yaml  # noqa: E402

PREFIX = "Error in network definition: "
EXPECTED_MAPPING = "expected mapping (check indentation)"
# What netplan raises: its parser's errors (both) and, 1.x only, its validation errors.
ERRORS = tuple(getattr(netplan, n) for n in ("NetplanParserException", "NetplanValidationException") if hasattr(netplan, n))


def dump(doc):
    return yaml.dump(doc, indent=4, default_flow_style=False, explicit_start=True, explicit_end=True)


_dir = None


def parse(doc):
    """The first line of netplan's message for this document, without its prefix; None when accepted.
    A validation error (1.x) is marked with a leading `=`; anything else with `!`."""
    global _dir
    if _dir is None or not os.path.isdir(_dir):
        _dir = tempfile.mkdtemp(prefix="netplan-probe-")
        os.makedirs(_dir + "/etc/netplan")
    path = _dir + "/etc/netplan/network-config.yaml"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(dump(doc))
    try:
        netplan.Parser().load_yaml_hierarchy(_dir)
        return None
    except ERRORS as e:
        msg = e.message.split("\n")[0]
        mark = "=" if type(e).__name__ == "NetplanValidationException" else ""
        return mark + (msg[len(PREFIX):] if msg.startswith(PREFIX) else "!" + msg)
    except Exception as e:  # netplan's own failure (0.106 can hand back a message of stray bytes)
        return "!" + type(e).__name__


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


def library_words():
    lib = sorted(glob.glob(os.path.join(ROOT, "usr/lib/*/libnetplan.so.*")))[-1]
    return set(subprocess.run(["strings", "-n", "2", lib], capture_output=True, text=True).stdout.split())


KEY = r"[a-z][a-z0-9-]*[a-z0-9]"


def candidates(words):
    out = set(words)
    # The linker stores a word that ends another once (`addresses` inside `optional-addresses`, `mark`
    # inside `fwmark`): every tail after a dash is a candidate, and every short tail (3 or 4 letters).
    for w in words:
        parts = re.split(r"(?<=[-.])", w)
        out.update("".join(parts[i:]) for i in range(1, len(parts)))
        out.update(w[i:] for i in range(1, len(w)) if 3 <= len(w) - i <= 4)
    data = os.path.join(REPO, "server", "src", "engine", "schema", "data", "network.json")
    with open(data) as fh:
        for schema in json.load(fh)["schemas"].values():
            out.update(schema_keys(schema, set()))
    return sorted({w for w in out if re.fullmatch(KEY, w)})


def value_candidates(words):
    """Words a checked scalar may take (enumerations): the library's words as written and their tails (the
    linker shares `gre` with `ip6gre`), and small numbers."""
    out = set()
    for w in words:
        out.update(w[i:] for i in range(len(w) - 1))
    out = {w for w in out if re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", w) and len(w) <= 40}
    out.update(str(i) for i in range(0, 11))
    return sorted(out)


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
# 1.x's own device types (probed when `network:` knows them): dummy-devices and virtual-ethernets.
DEVICES_1X = {
    "dummy-devices": {},
    "virtual-ethernets": {"peer": "dev1"},
}
EXTRA = {"vlans": {"ethernets": {"eth9": {}}}, "virtual-ethernets": {"virtual-ethernets": {"dev1": {"peer": "dev0"}}}}
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
    def __init__(self, words, values, pool):
        self.words = words
        self.values = values
        self.pool = pool
        self.contexts = {}
        self.checked = {}  # (key, message for zzz) -> measured enumeration (shared by contexts)

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
        for w, r in self.pool.map(answer, jobs, chunksize=32):
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
        if scalar == EXPECTED_MAPPING:
            info["scalar"] = scalar
            info["sequence"] = as_seq
            if ctx == "root" and k == "network":
                info["mapping"] = "network"
            elif ctx == "network" and k in self.devices:
                info["ids"] = "device:" + k  # measured with a device netplan accepts (main)
                special = self.section_keys(k, base)
                if special:
                    info["special"] = special
            elif as_map == "unknown key '%s'" % PROBE:
                info["mapping"] = self.context("%s.%s" % (ctx, k), path, base)
            else:
                # a mapping of ids (names of access points, passthrough settings...)
                inner = parse(build(path, {PROBE: {PROBE: "zzz"}}, base))
                if as_map == EXPECTED_MAPPING and inner == "unknown key '%s'" % PROBE:
                    info["ids"] = self.context("%s.%s.*" % (ctx, k), path + [PROBE], base)
                else:
                    info["ids"] = self.scalar_info(path + [PROBE], base, as_map)
                    info["ids"]["mapping"] = inner
        elif scalar == "expected sequence":
            info["scalar"] = scalar
            info["mapping"] = as_map
            item = parse(build(path, ["zzz"], base))
            if item == EXPECTED_MAPPING:
                info["items"] = self.context("%s.%s[]" % (ctx, k), path + [0], base)
            else:
                items = self.scalar_info(path + [0], base, item)
                items["mapping"] = parse(build(path, [{PROBE: "zzz"}], base))
                items["sequence"] = parse(build(path, [[]], base))
                # a list of fixed-length lists (openvswitch's peer ports): the length taken, if any
                for n in range(1, 4):
                    if parse(build(path, [["zza%d" % i for i in range(n)]], base)) is None:
                        items["tuple"] = n
                        break
                info["items"] = items
        else:
            info = self.scalar_info(path, base, scalar)
            info["mapping"] = as_map
            info["sequence"] = parse(build(path, ["zzz"], base))
        return info

    def scalar_info(self, path, base, answer):
        """What a scalar `zzz` got: accepted as any text, a boolean, an unsigned int, or checked further
        (then its message, and the words it takes when they are few)."""
        if answer is None:
            return {"scalar": "text"}
        if answer == "invalid boolean value 'zzz'":
            return {"scalar": "bool"}
        if answer == "invalid unsigned int value 'zzz'":
            return {"scalar": "uint"}
        info = {"scalar": "checked", "checked": answer}
        samples = {name: parse(build(path, v, base)) for name, v in SAMPLES.items()}
        kind = value_class(samples)
        if kind:
            info.update(kind)
            if kind["value"] == "mac":
                key = (path[-1] if isinstance(path[-1], str) else "[]", "mac", answer)
                if key not in self.checked:
                    jobs = [(build(path, v, base), v) for v in self.values if re.fullmatch(r"[a-z][a-z-]*", v)]
                    self.checked[key] = [v for v, r in self.pool.map(answer_fn, jobs, chunksize=64) if r is None]
                info["words"] = self.checked[key]
            return info
        key = (path[-1] if isinstance(path[-1], str) else "[]", answer)
        if key not in self.checked:
            jobs = [(build(path, v, base), v) for v in self.values]
            took = [v for v, r in self.pool.map(answer_fn, jobs, chunksize=64) if r is None]
            # an enumeration takes a few words and nothing else: no address, number or MAC of the samples;
            # and it is the key's own check, not one of the whole device (`dev0: ...`), which others decide too
            # (nor a 1.x validation error, marked `=`: cloud-init does not catch those)
            pure = all(r is not None for r in samples.values()) and not re.match(r"(dev0|zzqx): |[=!]", answer)
            self.checked[key] = took if pure and 0 < len(took) <= 64 else None
        took = self.checked[key]
        if took is not None:
            # read without regard to case (`mac` and `MAC`), or by its leading number (`version: 2.0`)?
            if all(parse(build(path, v, base)) is None for w in took for v in (w.upper(), w.lower(), w.capitalize())):
                info["caseless"] = True
            if all(re.match(r"\d", w) for w in took) and parse(build(path, took[0] + "zzq", base)) is None:
                info["leading"] = sorted({int(re.match(r"\d+", w).group()) for w in took})
        if took is not None and "zzz" in answer:
            # the message names the value: check the template with another word
            template = answer.replace("zzz", "{}")
            if parse(build(path, "zzy", base)) == template.replace("{}", "zzy"):
                info["values"] = took
                info["reject"] = template
        elif took is not None and parse(build(path, "zzy", base)) == answer:
            info["values"] = took
            info["reject"] = answer
        return info

    def section_keys(self, dev, base):
        """Keys a device-type section takes beside its ids (a scalar there is not an id's mapping)."""
        jobs = [(build(["network", dev, w], "zzz", base), w) for w in self.words]
        found = {}
        for w, r in self.pool.map(answer, jobs, chunksize=32):
            if r != EXPECTED_MAPPING and not (r or "").startswith("Invalid name"):
                found[w] = self.key("section:" + dev, ["network", dev, w], base, r)
        return found


# Values a checked scalar is tried with, to tell what it takes (an address, an address with a prefix, a MAC).
SAMPLES = {
    "v4": "10.0.0.1", "v4p": "10.0.0.1/24", "v6": "fd00::1", "v6p": "fd00::1/64", "mac": "52:54:00:12:34:56",
    "bad": "zzz", "badp": "zzz/24", "v4p33": "10.0.0.1/33", "one": "1",
}


def value_class(a):
    """What the answers to SAMPLES say the scalar takes, with netplan's messages (`{}`: the value), or None."""
    def tpl(name, value):
        m = a[name]
        return m.replace("'%s'" % value, "'{}'") if m and "'%s'" % value in m else None
    if a["one"] is None:
        return None  # takes a number too (a tunnel key): not an address
    if a["v4p"] is None and a["v6p"] is None and a["v4"] and a["v6"]:
        missing, malformed, prefix = tpl("v4", "10.0.0.1"), tpl("badp", "zzz/24"), tpl("v4p33", "10.0.0.1/33")
        if missing and malformed and prefix and tpl("bad", "zzz") == missing:
            return {"value": "cidr", "messages": {"missing": missing, "malformed": malformed, "prefix": prefix}}
    if a["v4"] is None and a["v6"] is None and a["v4p"] and a["mac"]:
        malformed = tpl("bad", "zzz")
        if malformed and tpl("v4p", "10.0.0.1/24") == malformed:
            return {"value": "ip", "messages": {"malformed": malformed}}
    if a["v4"] is None and a["v6"] and a["v4p"]:
        bad = tpl("bad", "zzz")
        if bad and tpl("v6", "fd00::1") == bad and tpl("v4p", "10.0.0.1/24") == bad:
            return {"value": "ip4", "messages": {"malformed": bad}}
    if a["v6"] is None and a["v4"] and a["v6p"]:
        bad = tpl("bad", "zzz")
        if bad and tpl("v4", "10.0.0.1") == bad and tpl("v6p", "fd00::1/64") == bad:
            return {"value": "ip6", "messages": {"malformed": bad}}
    if a["mac"] is None and a["v4"] and a["one"]:
        bad = tpl("bad", "zzz")
        if bad and tpl("v4", "10.0.0.1") == bad:
            return {"value": "mac", "messages": {"malformed": bad}}
    return None


def answer_fn(job):
    return answer(job)


def accepted(path, base, words):
    return [w for w in words if parse(build(path, w, base)) is None]


def name_chars():
    """The characters (printable ASCII and a few others) that make a name invalid, as an id and in match."""
    chars = [chr(c) for c in range(33, 127)] + [" ", "\t", "\u00e9", "\u2028"]
    out = {}
    for where, place in (("id", lambda n: {"network": {"ethernets": {n: {}}}}),
                         ("match", lambda n: {"network": {"ethernets": {"e0": {"match": {"name": n}}}}})):
        bad = []
        for c in chars:
            r = parse(place("a%sb" % c))
            if r is not None and r.startswith("Invalid name"):
                bad.append(c)
        out[where] = "".join(bad)
    out["message"] = parse({"network": {"ethernets": {"a b": {}}}}).replace("a b", "{}")
    return out


ROUTE_TYPE_CANDIDATES = ["unicast", "anycast", "blackhole", "broadcast", "local", "multicast", "nat", "prohibit",
                         "throw", "unreachable", "xresolve", "default", "none", "UNICAST", "Blackhole"]
ROUTE_SCOPE_CANDIDATES = ["global", "link", "host", "site", "nowhere", "universe", "GLOBAL", "Link"]


def route_facts():
    """What netplan checks of a route and of a routing-policy rule as a whole: the messages for addresses
    (not an address; of the other family than an earlier one), the word `to` takes besides addresses, the
    route types and scopes it takes, and for each type the message when `to` is missing (without and with
    `via`), and with an explicit scope the message of each case. Measured on an ethernet's `routes:` and
    `routing-policy:`; the messages are the first line netplan printed."""
    def route(r):
        return parse({"network": {"ethernets": {"dev0": {"routes": [r]}}}})

    def rule(r):
        return parse({"network": {"ethernets": {"dev0": {"routing-policy": [r]}}}})
    v4, v6 = "10.0.0.0/8", "2001:db8::/64"
    types = [t for t in ROUTE_TYPE_CANDIDATES if route({"to": v4, "via": "10.0.0.1", "type": t}) is None]
    scopes = [t for t in ROUTE_SCOPE_CANDIDATES if route({"to": v4, "via": "10.0.0.1", "scope": t}) is None]
    lower = sorted({t.lower() for t in types})
    return {
        "invalid": route({"to": "zzz", "via": "10.0.0.1"}),
        "mismatch": route({"to": v4, "via": "2001:db8::1"}).replace("2001:db8::1", "{}"),
        "defaultTo": "default" if route({"to": "default", "via": "10.0.0.1"}) is None else None,
        "types": lower,
        "typeReject": route({"to": v4, "type": "zzz"}).replace("zzz", "{}"),
        "scopes": sorted({t.lower() for t in scopes}),
        "scopeReject": route({"to": v4, "scope": "zzz"}).replace("zzz", "{}"),
        "missingTo": {t: [route({"type": t}), route({"type": t, "via": "10.0.0.1"})] for t in lower},
        "linkHostNeedsTo": route({"via": "10.0.0.1", "scope": "link"}),
        "globalUnicastNeedsBoth": route({"to": v4, "scope": "global"}),
        "nonUnicastNeedsTo": route({"type": "blackhole", "scope": "global"}),
        "policyNeedsAddress": rule({"table": 5}),
        "policyMismatch": rule({"from": v4, "to": v6}).replace(v6, "{}"),
    }


def member_facts():
    """netplan's messages for a device that is a member of two bonds or bridges (`{}`: the second one, the
    member, the first one), measured on two bonds and on a bond and a bridge sharing an ethernet."""
    def msg(doc, names):
        m = parse({"network": doc})
        for old, new in names:
            m = m.replace(old, new)
        return m
    two_bonds = {"ethernets": {"eth0": {}}, "bonds": {"bond0": {"interfaces": ["eth0"]}, "bond1": {"interfaces": ["eth0"]}}}
    bond_bridge = {"ethernets": {"eth0": {}}, "bonds": {"bond0": {"interfaces": ["eth0"]}}, "bridges": {"br0": {"interfaces": ["eth0"]}}}
    bridge_bond = {"ethernets": {"eth0": {}}, "bridges": {"br0": {"interfaces": ["eth0"]}, "br1": {"interfaces": ["eth0"]}}}
    return {
        "bond": msg(two_bonds, [("bond1:", "{0}:"), ("'eth0'", "'{1}'"), ("bond bond0", "bond {2}")]),
        "bridge": msg(bridge_bond, [("br1:", "{0}:"), ("'eth0'", "'{1}'"), ("bridge br0", "bridge {2}")]),
        "bridgeOverBond": msg(bond_bridge, [("br0:", "{0}:"), ("'eth0'", "'{1}'"), ("bond bond0", "bond {2}")]),
    }


def device_facts():
    """What netplan checks of a whole device that the model reproduces: a Wi-Fi device without access points
    (its message, `{}` the device; 1.x marks it `=`, a validation error)."""
    m = parse({"network": {"wifis": {"wl0": {"dhcp4": True}}}})
    return {"wifiNoAccessPoints": m.replace("wl0:", "{}:") if m else None}


def main():
    if "--routes" in sys.argv:
        # only the route facts, into an existing data file (the rest of it unchanged)
        path = sys.argv[sys.argv.index("--routes") + 1]
        with open(path) as fh:
            data = json.load(fh)
        data["routes"] = route_facts()
        data["members"] = member_facts()
        data["devices"] = device_facts()
        with open(path, "w") as fh:
            json.dump(data, fh, indent=None, separators=(",", ":"), sort_keys=True)
            fh.write("\n")
        return
    words = library_words()
    keys = candidates(words)
    values = value_candidates(words)
    sys.stderr.write("%d candidate keys, %d candidate values\n" % (len(keys), len(values)))
    p = Prober(keys, values, multiprocessing.Pool(int(os.environ.get("PROBE_JOBS", "3"))))
    p.devices = dict(DEVICES)
    for dev, body in DEVICES_1X.items():
        if parse({"network": {dev: {}}}) is None:
            p.devices[dev] = body
    for dev, body in p.devices.items():
        base = {"network": {dev: {"dev0": body}, **EXTRA.get(dev, {})}}
        p.context("device:" + dev, ["network", dev, "dev0"], base)
    p.context("network", ["network"], {"network": {}})
    p.context("root", [], {})
    tries = ["true", "false", "yes", "no", "on", "off", "y", "n", "True", "FALSE", "Yes", "ON", "1", "0", "t", "f", "",
             "null", "-1", "00", "007", "1500", "+5", "0x10", "1.5", "1e3", " 5", "4294967295", "4294967296",
             "18446744073709551615", "18446744073709551616", "99999999999999999999999"]
    eth = {"network": {"ethernets": {"dev0": {}}}}
    lib = "libnetplan 0.106 (Debian 12) through netplan-shim" if VERSION == "0.106" else "netplan 1.1.2 (Debian 13: libnetplan1 and its python3-netplan)"
    out = {
        "note": "Measured by scripts/netplan/probe.py --netplan %s from %s: which keys and value kinds netplan's parser accepts. Messages are netplan's, as it printed them." % (VERSION, lib),
        "netplan": VERSION,
        "prefix": PREFIX,
        "bool": accepted(["network", "ethernets", "dev0", "dhcp4"], eth, tries),
        "uint": accepted(["network", "ethernets", "dev0", "mtu"], eth, tries),
        "tries": tries,
        "names": name_chars(),
        "contexts": p.contexts,
        "routes": route_facts(),
        "members": member_facts(),
        "devices": device_facts(),
    }
    json.dump(out, sys.stdout, indent=None, separators=(",", ":"), sort_keys=True)
    sys.stdout.write("\n")
    shutil.rmtree(_dir or "/nonexistent", ignore_errors=True)


if __name__ == "__main__":
    main()
