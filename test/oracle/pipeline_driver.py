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
import os
import tempfile

import driver


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
    driver.serve(lambda case: make_mime(case) if case["kind"] == "makemime" else driver.run_userdata(oracle, case, blob_dir))


if __name__ == "__main__":
    main()
