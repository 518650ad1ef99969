"""Answers schema differential cases with the real cloud-init's validator, one JSON line per case.

Reads {"text": TEXT} lines on stdin and writes, per case, what `oracle.py --mode schema` reports for one
file with that text (`validate_schema_text`): {"valid", "errors", "deprecations", "yaml_error",
"not_a_dict"} or {"raised": CLASS} when cloud-init's validator itself raises. {"parts": [TEXT, ...]} is
`--mode schema --merged`: the parts are merged as user-data and the cloud-config.txt cloud-init writes is
validated (as `cloud-init schema --system` does). The cloud-init used is the one on CLOUDINIT_PATH (22.4.2
or upstream), so one process serves one version.
"""
import logging
import tempfile

from driver import load_oracle, merge_userdata, serve


def validate(oracle, case, blob_dir):
    try:
        if "parts" in case:
            merged = merge_userdata(oracle, [text.encode("utf-8") for text in case["parts"]], blob_dir)
            text = merged.get("cloud_config_txt") or ""
        else:
            text = case["text"]
        res = oracle.validate_schema_text(text, "f")
        out = {k: res[k] for k in ("valid", "errors", "deprecations", "not_a_dict")}
        out["yaml_error"] = res["yaml_error"] is not None
    except Exception as e:  # cloud-init's validator raised
        out = {"raised": type(e).__name__, "message": str(e)}
    return out


def main():
    oracle = load_oracle()
    logging.disable(logging.CRITICAL)
    blob_dir = tempfile.mkdtemp(prefix="ccm-schema-")
    serve(lambda case: validate(oracle, case, blob_dir))


if __name__ == "__main__":
    main()
