/** Section 2 (`--only cloudinit`): the same inputs through cloud-init (the oracle) and our CLI, whole processes and in-process. */
import * as path from 'node:path';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { BENCH, ctx, cloudInitRuns, ORACLE_PY, CLOUDINIT_PATH, SYSTEM_PYTHON, CLI, progress, runJson, sizeLabel, writeParts, filesIn, bytesIn } from './context.mjs';
import { median, fmtRatio } from './stats.mjs';

function oracleStatus() {
  if (!existsSync(ORACLE_PY)) return `the oracle script ${ORACLE_PY} is missing`;
  if (!existsSync(path.join(CLOUDINIT_PATH, 'cloudinit'))) return `cloud-init is not installed at ${CLOUDINIT_PATH} (run \`bash /work/shared/oracle/setup.sh\`)`;
  if (!existsSync(SYSTEM_PYTHON)) return `${SYSTEM_PYTHON} is missing`;
  return null;
}

/** Whole-process wall, CPU and peak RSS of one command, via scripts/bench/rusage.py (os.wait4). */
export async function rusage(stdoutFile, command) {
  return runJson(SYSTEM_PYTHON, [path.join(BENCH, 'rusage.py'), stdoutFile ?? '', '--', ...command], { timeoutMs: 20 * 60000, env: { CLOUDINIT_PATH } });
}

const pythonOracle = (files) => [SYSTEM_PYTHON, ORACLE_PY, '--raw', ...files];
const nodeCli = (files) => [process.execPath, CLI, ...files];

export async function benchCloudInit(engineRows) {
  const missing = oracleStatus();
  if (missing) {
    progress(`cloud-init: skipped: ${missing}`);
    return { installed: false, reason: missing, sizes: [] };
  }
  const result = { installed: true, sizes: [], floor: null };
  // The floor: start-up alone, on a two-line part.
  progress('cloud-init: start-up floor (a two-line part; bare interpreters)');
  const tiny = path.join(ctx.work, 'tiny.yaml');
  writeFileSync(tiny, '#cloud-config\nhostname: tiny\n');
  const floor = { python: [], node: [], nodeBare: [], pythonBare: [] };
  for (let i = 0; i < (ctx.quick ? 1 : 10); i++) {
    floor.python.push(await rusage(null, pythonOracle([tiny])));
    floor.node.push(await rusage(null, nodeCli([tiny])));
    floor.pythonBare.push(await rusage(null, [SYSTEM_PYTHON, '-c', 'pass']));
    floor.nodeBare.push(await rusage(null, [process.execPath, '-e', '0']));
  }
  result.floor = floor;

  for (const [M, K] of ctx.config.cloudInitSizes) {
    const label = sizeLabel(M, K);
    const dir = writeParts(M, K);
    const files = filesIn(dir);
    const bytes = bytesIn(dir);
    const plan = cloudInitRuns(bytes);
    const row = { M, K, keys: M * K, bytes, plan, whole: { python: [], node: [] } };
    try {
      progress(`cloud-init ${label}: whole process, up to ${plan.whole} runs each (python3 oracle.py --raw vs node bin/cloud-config-merge.js)`);
      const started = performance.now();
      for (let i = 0; i < plan.whole; i++) {
        if (i >= 2 && performance.now() - started > plan.budgetMs) break;
        const outPy = i === 0 ? path.join(ctx.work, `out-py-${M}x${K}.txt`) : null;
        const outNode = i === 0 ? path.join(ctx.work, `out-node-${M}x${K}.txt`) : null;
        // alternate which goes first
        let py;
        let node;
        if (i % 2 === 0) {
          py = await rusage(outPy, pythonOracle(files));
          node = await rusage(outNode, nodeCli(files));
        } else {
          node = await rusage(outNode, nodeCli(files));
          py = await rusage(outPy, pythonOracle(files));
        }
        const a = [py, node];
        row.whole.python.push(a[0]);
        row.whole.node.push(a[1]);
        if (i === 0) {
          row.pythonCode = a[0].code;
          row.nodeCode = a[1].code;
          row.identical = a[0].code === 0 && a[1].code === 0 && readFileSync(outPy).equals(readFileSync(outNode));
        }
      }
      progress(`cloud-init ${label}: in-process, ${plan.warmup} warm-up + up to ${plan.runs} runs of mode_userdata (one Python process)`);
      row.inproc = await runJson(SYSTEM_PYTHON, [path.join(BENCH, 'cloudinit_driver.py'), ORACLE_PY, String(plan.runs), String(plan.warmup), ...files], {
        timeoutMs: 30 * 60000,
        env: { CLOUDINIT_PATH },
      });
      const engine = engineRows.find((r) => r.M === M && r.K === K && r.summary);
      row.summary = {
        wholePyCpu: median(row.whole.python.map((r) => r.cpu)),
        wholeNodeCpu: median(row.whole.node.map((r) => r.cpu)),
        wholePyWall: median(row.whole.python.map((r) => r.wall)),
        wholeNodeWall: median(row.whole.node.map((r) => r.wall)),
        wholePyRSS: median(row.whole.python.map((r) => r.maxRSS)),
        wholeNodeRSS: median(row.whole.node.map((r) => r.maxRSS)),
        inPyCpu: median(row.inproc.cpu),
        inPyWall: median(row.inproc.wall),
        inNodeCpu: engine?.summary.bCpu ?? NaN,
        inNodeWall: engine?.summary.bWall ?? NaN,
      };
      const s = row.summary;
      s.wholeRatio = s.wholePyCpu / s.wholeNodeCpu;
      s.wholeRatioWall = s.wholePyWall / s.wholeNodeWall;
      s.inRatio = s.inPyCpu / s.inNodeCpu;
      s.inRatioWall = s.inPyWall / s.inNodeWall;
      progress(`cloud-init ${label}: whole process ${fmtRatio(s.wholeRatio)} (CPU), in-process ${fmtRatio(s.inRatio)} (CPU); identical output: ${row.identical}`);
    } catch (e) {
      row.error = String(e.message ?? e);
      progress(`cloud-init ${label}: FAILED: ${row.error}`);
    }
    result.sizes.push(row);
  }
  return result;
}
