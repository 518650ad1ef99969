"""Runs a command and reports its wall time, CPU time (user+sys) and peak RSS.

    python3 rusage.py STDOUT_FILE -- COMMAND ARGS...

The command's stdout goes to STDOUT_FILE (or /dev/null), its stderr is kept
(last 2000 bytes reported). Prints one JSON line:
{"wall": ms, "cpu": ms, "maxRSS": bytes, "code": exit status, "stderr": "..."}.
os.wait4 gives the rusage of exactly this child (and what it exec'd into).
"""
import json
import os
import subprocess
import sys
import time


def main():
    out_path = sys.argv[1]
    cmd = sys.argv[sys.argv.index("--") + 1:]
    with open(out_path or os.devnull, "wb") as out:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.PIPE)
        err = p.stderr.read()
        _, status, ru = os.wait4(p.pid, 0)
        wall = (time.perf_counter() - t0) * 1000.0
    code = os.waitstatus_to_exitcode(status)
    sys.stdout.write(json.dumps({
        "wall": wall,
        "cpu": (ru.ru_utime + ru.ru_stime) * 1000.0,
        "maxRSS": ru.ru_maxrss * 1024,
        "code": code,
        "stderr": err[-2000:].decode("utf-8", "replace"),
    }) + "\n")


if __name__ == "__main__":
    main()
