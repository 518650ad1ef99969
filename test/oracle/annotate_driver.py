"""Answers `--check` differential cases with the real `cloud-init schema -c FILE [--annotate]`.

Reads {"text": TEXT, "annotate": BOOL (default true), "instance_data": JSON TEXT or absent} lines on
stdin; for each, writes TEXT to a file named `f` (and the instance data to `idata.json`), runs the
installed cloud-init's own schema command on it (handle_schema_args, as `cloud-init schema
--config-file f [--annotate] [--instance-data idata.json]` does) and writes one JSON line {"stdout",
"stderr", "exit"} (exit is the SystemExit code, or "raised: CLASS" when the command itself fails with
another exception). The cloud-init used is the one on CLOUDINIT_PATH (22.4.2 or upstream), so one
process serves one version (22.4 has no --instance-data).
"""
import contextlib
import io
import json
import logging
import os
import sys
import tempfile
import types

from driver import load_oracle


def run_schema_command(ci_schema, path, annotate=True, instance_data=None):
    args = types.SimpleNamespace(config_file=path, system=False, docs=None, annotate=annotate,
                                 schema_type=None, instance_data=instance_data)
    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            ci_schema.handle_schema_args("schema", args)
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 1
        except Exception as e:  # the command itself fails (cloud-init prints a traceback)
            code = "raised: " + type(e).__name__
    return {"stdout": out.getvalue(), "stderr": err.getvalue(), "exit": code}


def main():
    oracle = load_oracle()  # the oracle module, cloud-init imported (driver.py)
    from cloudinit.config import schema as ci_schema
    logging.disable(logging.CRITICAL)
    work = tempfile.mkdtemp(prefix="ccm-annotate-")
    os.chdir(work)
    for line in sys.stdin:
        case = json.loads(line)
        with open("f", "w", encoding="utf-8", newline="") as fh:
            fh.write(case["text"])
        instance_data = None
        if case.get("instance_data") is not None:
            with open("idata.json", "w", encoding="utf-8") as fh:
                fh.write(case["instance_data"])
            instance_data = "idata.json"
        answer = run_schema_command(ci_schema, "f", case.get("annotate", True), instance_data)
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
