/** Section 1 (`--only engine`): the engine on generated parts, (a) parse alone against (b) parse+merge+render, each in a fresh child process. */
import { ctx, engineRuns, progress, runJson, sizeLabel, writeParts, bytesIn, NODE_CHILD } from './context.mjs';
import { median, fmtMs, fmtMB, fmtBytes, fmtRatio } from './stats.mjs';

export async function benchEngine() {
  const rows = [];
  for (const [M, K] of ctx.config.engineSizes) {
    const label = sizeLabel(M, K);
    progress(`engine ${label}: generating inputs`);
    const dir = writeParts(M, K);
    const bytes = bytesIn(dir);
    const plan = engineRuns(bytes);
    const row = { M, K, keys: M * K, bytes, plan };
    try {
      if (plan.interleaved) {
        progress(`engine ${label} (${fmtBytes(bytes)}): ${plan.warmup} warm-up + up to ${plan.runs} interleaved runs of (a) parse, (a') parse-and-drop, (b) runUserData`);
        const t = await runJson(process.execPath, [...NODE_CHILD(), 'time', dir, plan.runs, plan.warmup, plan.budgetMs, plan.minRuns], { timeoutMs: 20 * 60000 });
        row.parseKeep = t.parseKeep;
        row.parseDrop = t.parseDrop;
        row.run = t.run;
        row.outputChars = t.outputChars;
        row.ratioKeep = t.run.map((r, i) => r.cpu / t.parseKeep[i].cpu);
        row.ratioDrop = t.run.map((r, i) => r.cpu / t.parseDrop[i].cpu);
        row.ratioKeepWall = t.run.map((r, i) => r.wall / t.parseKeep[i].wall);
        progress(`engine ${label}: where (b)'s time goes (one instrumented run after warm-up runs)`);
        row.attrib = await runJson(process.execPath, [...NODE_CHILD(), 'single', dir, 'run', String(Math.min(5, Math.max(1, plan.warmup))), bytes < 1e6 ? '5' : '1'], { timeoutMs: 10 * 60000 });
      }
      progress(`engine ${label}: peak memory (one fresh process each for: reading the inputs, (a), (b))`);
      row.memBase = await runJson(process.execPath, [...NODE_CHILD(), 'single', dir, 'base', '0', '0'], { timeoutMs: 5 * 60000 });
      row.memParse = await runJson(process.execPath, [...NODE_CHILD(), 'single', dir, 'parse', '0', '0'], { timeoutMs: 20 * 60000 });
      row.memRun = await runJson(process.execPath, [...NODE_CHILD(), 'single', dir, 'run', '0', plan.interleaved ? '0' : '1'], { timeoutMs: 30 * 60000 });
      if (!plan.interleaved) {
        row.parseKeep = [{ wall: row.memParse.wall, cpu: row.memParse.cpu }];
        row.run = [{ wall: row.memRun.wall, cpu: row.memRun.cpu }];
        row.parseDrop = [];
        row.ratioKeep = [row.memRun.cpu / row.memParse.cpu];
        row.ratioKeepWall = [row.memRun.wall / row.memParse.wall];
        row.ratioDrop = [];
        row.attrib = row.memRun;
        row.outputChars = row.memRun.outputChars;
      }
      row.summary = {
        aCpu: median(row.parseKeep.map((r) => r.cpu)),
        aWall: median(row.parseKeep.map((r) => r.wall)),
        aDropCpu: median(row.parseDrop.map((r) => r.cpu)),
        bCpu: median(row.run.map((r) => r.cpu)),
        bWall: median(row.run.map((r) => r.wall)),
        ratio: median(row.ratioKeep),
        ratioWall: median(row.ratioKeepWall),
        ratioDrop: median(row.ratioDrop),
        n: row.run.length,
      };
      progress(
        `engine ${label}: (a) ${fmtMs(row.summary.aCpu)} CPU, (b) ${fmtMs(row.summary.bCpu)} CPU, (b)/(a) ${fmtRatio(row.summary.ratio)}; peak RSS (a) ${fmtMB(row.memParse.maxRSS)}, (b) ${fmtMB(row.memRun.maxRSS)}`,
      );
    } catch (e) {
      row.error = String(e.message ?? e);
      progress(`engine ${label}: FAILED: ${row.error}`);
    }
    rows.push(row);
  }
  return rows;
}
