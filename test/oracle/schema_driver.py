"""Answers schema differential cases with the real cloud-init's validator, one JSON line per case.

Reads {"text": TEXT} lines on stdin and writes, per case, what `oracle.py --mode schema` reports for one
file with that text (`validate_schema_text`): {"valid", "errors", "deprecations", "yaml_error",
"not_a_dict"} or {"raised": CLASS} when cloud-init's validator itself raises. The cloud-init used is the
one on CLOUDINIT_PATH (22.4.2 or upstream), so one process serves one version.
"""
import importlib.util
import json
import logging
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ORACLE = os.environ.get("ORACLE_PY") or os.path.join(HERE, "..", "..", "..", "shared", "oracle", "oracle.py")


def main():
    spec = importlib.util.spec_from_file_location("ccm_oracle", ORACLE)
    oracle = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(oracle)
    oracle.import_cloudinit(None)
    oracle.preload_cloudinit()
    logging.getLogger("cloudinit").setLevel(logging.CRITICAL + 1)
    logging.disable(logging.CRITICAL)
    for line in sys.stdin:
        case = json.loads(line)
        try:
            res = oracle.validate_schema_text(case["text"], "f")
            out = {k: res[k] for k in ("valid", "errors", "deprecations", "not_a_dict")}
            out["yaml_error"] = res["yaml_error"] is not None
        except Exception as e:  # cloud-init's validator raised
            out = {"raised": type(e).__name__, "message": str(e)}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
