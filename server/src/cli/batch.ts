/**
 * `--batch CASES.jsonl`: many spec merges in one process. Each input line is
 * `{"spec": STRING | LIST, "values": [v1, v2, ...]}`; each output line is
 * `{"result": ...}` or `{"error": {"kind", "stage", "message"}}`, in order.
 * Lines are read with Python's JSON rules, so `1` and `1.0` stay distinct.
 */
import { PyDict, PyValue } from '../engine/py/values';
import { PyError } from '../engine/py/errors';
import { parsePythonJson, toCanonicalJson } from '../engine/py/json';
import { parseListSpec, parseStringSpec, SpecError } from '../engine/spec/parse';
import { constructMergers } from '../engine/merge/construct';
import type { CliIO } from './main';

export function runBatch(text: string, io: CliIO): number {
  const out: string[] = [];
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n];
    if (!line.trim()) continue;
    out.push(runCase(line, n + 1));
  }
  io.stdout(out.join('\n') + (out.length ? '\n' : ''));
  return 0;
}

function runCase(line: string, lineNumber: number): string {
  let input: PyValue;
  try {
    input = parsePythonJson(line);
  } catch (e) {
    return JSON.stringify({ error: { kind: 'InputError', stage: 'input', message: `line ${lineNumber}: ${(e as Error).message}` } });
  }
  if (!(input instanceof PyDict) || !input.has('spec') || !Array.isArray(input.get('values')) || (input.get('values') as PyValue[]).length === 0) {
    return JSON.stringify({ error: { kind: 'InputError', stage: 'input', message: `line ${lineNumber}: expected {"spec": ..., "values": [at least one value]}` } });
  }
  const spec = input.get('spec') as PyValue;
  const values = input.get('values') as PyValue[];
  let stage = 'parse';
  try {
    const parsed = typeof spec === 'string' ? parseStringSpec(spec) : parseListSpec(spec);
    stage = 'construct';
    const root = constructMergers(parsed.mergers);
    stage = 'merge';
    let result = values[0];
    for (const v of values.slice(1)) result = root.merge(result, v);
    return `{"result":${toCanonicalJson(result).text}}`;
  } catch (e) {
    if (!(e instanceof PyError)) throw e;
    const kind = e.pyType === 'ModuleNotFoundError' ? 'ModuleNotFoundError' : e.pyType;
    return JSON.stringify({ error: { kind, stage: e instanceof SpecError ? e.stage : stage, message: e.message } });
  }
}
