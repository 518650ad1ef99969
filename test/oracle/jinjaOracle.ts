/**
 * One long-lived Python process per cloud-init version that answers template questions with cloud-init's
 * own templater and Jinja2: a suite gives the body of `handle(req)`, this module the imports and the
 * line protocol (one JSON request per line in, one JSON answer per line out).
 */
import { CLOUDINIT_TREES, type CloudInitVersion } from './cloudinitTrees';
import { LineOracle } from './lineOracle';

const PREAMBLE = String.raw`
import sys, json, re, warnings
warnings.simplefilter("ignore")
sys.path.insert(0, sys.argv[1])
import yaml
from cloudinit.templater import render_string, detect_template, MISSING_JINJA_PREFIX
from cloudinit.handlers.jinja_template import convert_jinja_instance_data
from jinja2.exceptions import UndefinedError, TemplateSyntaxError, SecurityError

def missing_variables(text):
    return [m.replace(MISSING_JINJA_PREFIX, "") for m in re.findall(r"%s[^\s]+" % MISSING_JINJA_PREFIX, text)]
`;

const LOOP = String.raw`
for line in sys.stdin:
    try:
        out = handle(json.loads(line))
    except BaseException as e:
        out = {"ok": False, "reason": "oracle-crash", "message": repr(e)}
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
`;

/** `handle` is Python source defining `def handle(req):` at column 0. */
export function startJinjaOracle(version: CloudInitVersion, handle: string, env: NodeJS.ProcessEnv): LineOracle {
  return new LineOracle('/usr/bin/python3', ['-c', PREAMBLE + handle + LOOP, CLOUDINIT_TREES[version]], { env, timeoutMs: 20000 });
}
