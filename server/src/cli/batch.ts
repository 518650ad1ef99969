/**
 * `--batch CASES.jsonl`: many spec merges in one process. Each input line is
 * `{"spec": STRING | LIST, "values": [v1, v2, ...]}`; each output line is
 * `{"result": ...}` or `{"error": {"kind", "stage", "message"}}`, in order.
 * Lines are read with Python's JSON rules, so `1` and `1.0` stay distinct.
 */
import { PyDict, PyValue } from '../engine/py/values';
import { parsePythonJson, toCanonicalJson } from '../engine/py/json';
import { mergeWithSpec } from '../engine/merge/mergeWithSpec';
import type { CliIO } from './io';

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
  const merged = mergeWithSpec(input.get('spec') as PyValue, input.get('values') as PyValue[]);
  if (merged.ok) return `{"result":${toCanonicalJson(merged.value).text}}`;
  return JSON.stringify({ error: { kind: merged.error.pyType, stage: merged.stage, message: merged.error.message } });
}
