"""Batch driver for test/oracle/plan.diff.ts: runs the oracle's plan.py worker (../shared/oracle/plan.py,
cloud-init's own Modules.run_section and Cloud.run semaphores) on many cases in ONE process per cloud-init
version, instead of one plan.py process per case.

    PYTHONPATH= /usr/bin/python3 plan_driver.py ORACLE_DIR VERSION CI_PATH < cases.json > results.json

cases.json: [{"config": FILE, "distro": NAME, "cloud_cfg"?: FILE}, ...]. Each result is plan.py's entry for that version, cut to
what the differential tests compare (stages, boots, cloud_cfg, the users users_groups creates, run_section's
log per stage), or {"error": ...}.
"""
import argparse
import json
import os
import shutil
import sys
import tempfile


def main():
    oracle, version, ci_path = sys.argv[1:4]
    sys.path.insert(0, oracle)
    import plan  # the oracle's plan.py

    cases = json.load(sys.stdin)
    out = []
    for case in cases:
        ns = argparse.Namespace(
            version=version, ci_path=ci_path, config=os.path.abspath(case["config"]),
            distro=case["distro"], variant=None, cmdline="", cloud_cfg=case.get("cloud_cfg"), confd=[],
            ds_config=None, vendor=None, cloudcfg_dir=os.path.join(oracle, "cloudcfg", version),
            package_etc=(os.path.normpath(os.path.join(ci_path, "../../../../etc/cloud"))
                         if version == "22.4" else None))
        tmp = tempfile.mkdtemp(prefix="ccm-plan-diff-")
        try:
            r = plan._worker(ns, tmp)
            out.append({
                "cloud_cfg": r["cloud_cfg"],
                "stages": {s: [{"module": x["module"], "frequency": x["frequency"],
                                "decision": x["decision"], "will_run": x["will_run"]} for x in rows]
                           for s, rows in r["stages"].items()},
                "boots": r["boots"],
                "users": (r.get("users") or {}).get("users"),
                "log": r.get("log"),
            })
        except plan.UsageError as e:
            out.append({"error": str(e)})
        except Exception as e:  # a crash of cloud-init's code on this case
            out.append({"error": "%s: %s" % (type(e).__name__, e)})
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    json.dump(out, sys.stdout, default=str)


if __name__ == "__main__":
    main()
