"""In-process timing of the real cloud-init on user-data files (for `npm run bench`).

    python3 cloudinit_driver.py ORACLE_PY RUNS WARMUP FILE...

Imports the oracle module once (cloud-init and PyYAML loaded, as in
test/oracle/driver.py), then times `mode_userdata` -- user-data processing,
the cloud-config handler's merges and the cloud-config.txt dump -- RUNS times
after WARMUP runs, with a gc.collect() before each. Prints one JSON line:
{"wall": [ms...], "cpu": [ms...], "chars": N, "error": null}.
Needs the re-exec'd interpreter: run it with /usr/bin/python3 (Debian's PyYAML).
"""
import gc
import importlib.util
import json
import logging
import sys
import time
import types


def main():
    oracle_py, runs, warmup, files = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
    spec = importlib.util.spec_from_file_location("ccm_oracle", oracle_py)
    oracle = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(oracle)
    oracle.import_cloudinit(None)
    oracle.preload_cloudinit()
    logging.getLogger("cloudinit").setLevel(logging.CRITICAL + 1)
    args = types.SimpleNamespace(files=files, include_map=[], include_missing="error", instance_data=None, launch_index=None)
    wall, cpu = [], []
    chars, error = None, None
    for i in range(warmup + runs):
        out = {}
        gc.collect()
        c0, t0 = time.process_time(), time.perf_counter()
        try:
            oracle.mode_userdata(args, out)
        except oracle.CloudInitRaised as e:
            error = type(e.exc).__name__
        t1, c1 = time.perf_counter(), time.process_time()
        if i >= warmup:
            wall.append((t1 - t0) * 1000.0)
            cpu.append((c1 - c0) * 1000.0)
        chars = len(out.get("cloud_config_txt") or "")
        out = None
    sys.stdout.write(json.dumps({"wall": wall, "cpu": cpu, "chars": chars, "error": error}) + "\n")


if __name__ == "__main__":
    main()
