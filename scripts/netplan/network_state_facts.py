"""Facts of cloud-init's network_state parser per version, for server/src/engine/network/networkState.ts.

    /usr/bin/python3 scripts/netplan/network_state_facts.py > server/src/engine/network/data/network-state.json

What a first boot's `parse_net_config_data` raises on (hosts without netplan: the renderer parses the config)
differs a little between versions. This script reads each installed cloud-init (../shared/oracle/setup.sh
--all) and writes down, per version: the v2 bond and bridge parameter names it maps to v1 (any other raises
KeyError), the keys of the route it builds from a v2 route, whether a route `to: default` is read (current),
whether an interface's MAC address is lower-cased (a MAC YAML reads as an int then raises), whether interfaces
are keyed by their v2 id (`config_id`), and whether the v2 nameservers are merged the older way (22.4, 23.4).
Facts are read from the module's values and source text; no cloud-init code is copied.
"""
import inspect
import json
import os
import subprocess
import sys

VERSIONS = ["22.4", "23.4", "24.4", "25.1", "current"]
SETUP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "oracle", "setup.sh")
if not os.path.exists(SETUP):
    SETUP = "/work/shared/oracle/setup.sh"

PROBE = r'''
import inspect, json, sys
from cloudinit.net import network_state as ns
src = inspect.getsource(ns)
v2 = inspect.getsource(ns.NetworkStateInterpreter._v2_to_v1_ipcfg)
keys = []
for k in ("destination", "gateway", "metric", "mtu", "table"):
    if '"%s": route.get(' % k in v2:
        keys.append(k)
print(json.dumps({
    "bondParams": sorted(v for v in ns.NET_CONFIG_TO_V2["bond"].values() if v is not None),
    "bridgeParams": sorted(v for v in ns.NET_CONFIG_TO_V2["bridge"].values() if v is not None),
    "routeKeys": keys,
    "defaultRoute": 'addr == "default"' in src,
    "macLower": 'iface["mac_address"] = iface["mac_address"].lower()' in src,
    "configId": '"config_id": eth' in src,
    "oldNameservers": 'get("search", [])' in inspect.getsource(ns.NetworkStateInterpreter._v2_common),
}))
'''

out = {}
for v in VERSIONS:
    path = subprocess.run(["bash", SETUP, "--where", v], capture_output=True, text=True).stdout.strip().splitlines()[-1]
    r = subprocess.run(["/usr/bin/python3", "-c", PROBE], capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=path))
    if r.returncode:
        sys.exit("cloud-init %s: %s" % (v, r.stderr))
    out[v] = json.loads(r.stdout)
json.dump(out, sys.stdout, indent=None, separators=(",", ":"), sort_keys=True)
sys.stdout.write("\n")
