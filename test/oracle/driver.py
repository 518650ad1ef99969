"""Answers differential-test cases with the real cloud-init, one JSON line per case; and the pieces
the other drivers share (loading the oracle, writing user-data files, the JSON-lines loop).

Reads JSON lines on stdin, writes one JSON line per case on stdout:
  {"kind": "spec", "spec": STRING | LIST, "values": [...]}      -> {"result": <canonical json text>} | {"error": CLASS}
  {"kind": "userdata", "blobs": [BASE64...], "include_missing": "error"|"skip"}
                                                                -> {"raw": TEXT | null, "error": CLASS | null}
Uses ../shared/oracle/oracle.py (which drives Debian's cloud-init) as a library, so one
process serves thousands of cases.
"""
import base64
import importlib.util
import json
import logging
import os
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
ORACLE = os.environ.get("ORACLE_PY") or os.path.join(HERE, "..", "..", "..", "shared", "oracle", "oracle.py")


def load_oracle():
    spec = importlib.util.spec_from_file_location("ccm_oracle", ORACLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.import_cloudinit(None)
    module.preload_cloudinit()
    logging.getLogger("cloudinit").setLevel(logging.CRITICAL + 1)
    return module


def canonical(oracle, value):
    return oracle.dump_json(oracle.to_jsonable(value, []), False)


def run_spec(oracle, case):
    from cloudinit import mergers
    try:
        raw = case["spec"]
        if isinstance(raw, str):
            parsed = mergers.string_extract_mergers(raw)
        else:
            parsed = mergers.dict_extract_mergers({"merge_how": raw})
        root = mergers.construct(parsed)
        values = case["values"]
        result = values[0]
        for v in values[1:]:
            result = root.merge(result, v)
        return {"result": canonical(oracle, result)}
    except Exception as e:  # the class is what cloud-init's callers see
        return {"error": type(e).__name__}


def merge_userdata(oracle, blobs, blob_dir, include_missing="error", launch_index=None):
    """The oracle's user-data mode over these blobs (bytes), written as files; returns what it reports."""
    files = []
    for i, blob in enumerate(blobs):
        path = os.path.join(blob_dir, "blob%d" % i)
        with open(path, "wb") as fh:
            fh.write(blob)
        files.append(path)
    args = types.SimpleNamespace(files=files, include_map=[], include_missing=include_missing,
                                 instance_data=None, launch_index=launch_index)
    out = {}
    oracle.mode_userdata(args, out)
    return out


def run_userdata(oracle, case, blob_dir):
    blobs = [base64.b64decode(b) for b in case["blobs"]]
    try:
        out = merge_userdata(oracle, blobs, blob_dir, case.get("include_missing", "error"), case.get("launch_index"))
    except oracle.CloudInitRaised as e:
        return {"raw": None, "error": type(e.exc).__name__}
    return {"raw": out.get("cloud_config_txt"), "error": None}


def serve(answer):
    """One JSON line in, one out, until stdin ends; an exception of `answer` is a driver bug, said as such."""
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            result = answer(json.loads(line))
        except Exception as e:
            result = {"driver_error": "%s: %s" % (type(e).__name__, e)}
        sys.stdout.write(json.dumps(result) + "\n")
        sys.stdout.flush()


def main():
    oracle = load_oracle()
    import tempfile
    blob_dir = tempfile.mkdtemp(prefix="ccm-diff-")
    serve(lambda case: run_spec(oracle, case) if case["kind"] == "spec" else run_userdata(oracle, case, blob_dir))


if __name__ == "__main__":
    main()
