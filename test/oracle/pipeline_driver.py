"""The Python side of test/oracle/pipeline.diff.ts: cloud-init's own make-mime, and user-data
through the real cloud-init, one JSON line per case.

  {"kind": "makemime", "dir": DIR, "attach": ["a.yaml:cloud-config", ...], "merge": [null | SPEC, ...]}
      -> {"text": WHAT make-mime PRINTS, "boundary": B} | {"error": CLASS}
     Each attachment goes through cloudinit.cmd.devel.make_mime (file_content_type and
     create_mime_message, run in DIR); a FILE:TYPE without a type gets the type cloud-init's
     handlers.type_from_starts_with gives the file. A merge spec is added to that part as an
     X-Merge-Type header with add_header (make-mime itself has no option for it).
  {"kind": "userdata", "blobs": [BASE64...]} -> {"raw": TEXT | null, "error": CLASS | null}
"""
import base64
import importlib.util
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("ccm_driver", os.path.join(HERE, "driver.py"))
driver = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(driver)


def make_mime(case):
    from cloudinit.cmd.devel import make_mime as mm
    from cloudinit import handlers
    previous = os.getcwd()
    os.chdir(case["dir"])
    try:
        files = []
        for arg in case["attach"]:
            if arg.endswith(":"):
                name = arg[:-1]
                with open(name, "r") as fh:
                    sniffed = handlers.type_from_starts_with(fh.read())
                arg = name + ":" + sniffed[len("text/"):]
            files.append(mm.file_content_type(arg))
        try:
            message, errors = mm.create_mime_message(files)
        finally:
            for fh, _, _ in files:
                fh.close()
        for sub, spec in zip(message.get_payload(), case.get("merge") or []):
            if spec is not None:
                sub.add_header("X-Merge-Type", spec)
        # make-mime prints the message: print() adds the last newline.
        return {"text": str(message) + "\n", "boundary": message.get_boundary(), "errors": errors}
    except Exception as e:
        return {"error": type(e).__name__, "message": str(e)}
    finally:
        os.chdir(previous)


def main():
    oracle = driver.load_oracle()
    blob_dir = tempfile.mkdtemp(prefix="ccm-pipeline-")
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        case = json.loads(line)
        try:
            if case["kind"] == "makemime":
                answer = make_mime(case)
            else:
                answer = driver.run_userdata(oracle, case, blob_dir)
        except Exception as e:  # a driver bug, reported as such
            answer = {"driver_error": "%s: %s" % (type(e).__name__, e)}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
