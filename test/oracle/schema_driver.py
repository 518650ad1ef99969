"""Answers schema differential cases with the real cloud-init's validator, one JSON line per case.

Reads {"text": TEXT} lines on stdin and writes, per case, what `oracle.py --mode schema` reports for one
file with that text (`validate_schema_text`): {"valid", "errors", "deprecations", "yaml_error",
"not_a_dict"} or {"raised": CLASS} when cloud-init's validator itself raises. {"parts": [TEXT, ...]} is
`--mode schema --merged`: the parts are merged as user-data and the cloud-config.txt cloud-init writes is
validated (as `cloud-init schema --system` does). The cloud-init used is the one on CLOUDINIT_PATH (22.4.2
or upstream), so one process serves one version.
"""
import json
import logging
import os
import sys
import tempfile
import types

from driver import load_oracle


def main():
    oracle = load_oracle()  # the oracle module, cloud-init imported (driver.py)
    logging.disable(logging.CRITICAL)
    blob_dir = tempfile.mkdtemp(prefix="ccm-schema-")
    for line in sys.stdin:
        case = json.loads(line)
        try:
            if "parts" in case:
                files = []
                for i, text in enumerate(case["parts"]):
                    path = os.path.join(blob_dir, "part%d" % i)
                    with open(path, "w", encoding="utf-8") as fh:
                        fh.write(text)
                    files.append(path)
                args = types.SimpleNamespace(files=files, include_map=[], include_missing="error",
                                             instance_data=None, launch_index=None)
                merged = {}
                oracle.mode_userdata(args, merged)
                text = merged.get("cloud_config_txt") or ""
            else:
                text = case["text"]
            res = oracle.validate_schema_text(text, "f")
            out = {k: res[k] for k in ("valid", "errors", "deprecations", "not_a_dict")}
            out["yaml_error"] = res["yaml_error"] is not None
        except Exception as e:  # cloud-init's validator raised
            out = {"raised": type(e).__name__, "message": str(e)}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
