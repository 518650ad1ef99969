/**
 * What the real cloud-init does with each case of the hostile corpus, recorded by
 * test/oracle/corpus.diff.ts (`node out/test/oracle/corpus.diff.js --write`, with the oracle installed)
 * in corpus-cloud-init.json beside this file: the tests hold the CLI, the preview and the editor to it
 * without running cloud-init.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from './harness';

export interface CloudInitRecord {
  /** The oracle's exit code: 0, or 3 where cloud-init raised (no user-data processed, or no cloud-config.txt). */
  exit: number;
  /** The exception cloud-init raised (`Type: message`), `{dir}` for the directory of the inputs. */
  error?: string;
  /** cloud-config.txt as cloud-init writes it (up to 2,000 characters), else its SHA-256 (hex). */
  cloudConfigTxt?: string;
  cloudConfigTxtSha256?: string;
  cloudConfigTxtLength?: number;
  /** confd, mergemany and spec modes: the merged value (up to 2,000 characters of JSON), else the SHA-256 of its JSON. */
  result?: unknown;
  resultSha256?: string;
  /** The parts cloud-init's handlers saw (the first 20), whether the cloud-config handler merged each, with which mergers. */
  partsCount?: number;
  parts?: Array<{ filename: string; contentType: string; merged: boolean | null; /** Cut at 200 characters (then ending in `...`). */ spec?: string }>;
  /** Its WARNING log records (the first 10, messages cut at 300 characters). */
  warningsCount: number;
  warnings: Array<{ logger: string; message: string }>;
}

export interface CorpusRecord {
  /** `version.version_string()` of the cloud-init that answered. */
  cloudInit: string;
  regenerate: string;
  cases: Record<string, CloudInitRecord>;
}

export const CORPUS_RECORD_PATH = path.join(REPO_ROOT, 'test', 'robustness', 'corpus-cloud-init.json');

let loaded: CorpusRecord | undefined;

/** cloud-init's record of a case (undefined: the oracle cannot run it, see corpus.diff.ts). */
export function cloudInitRecord(name: string): CloudInitRecord | undefined {
  loaded ??= JSON.parse(readFileSync(CORPUS_RECORD_PATH, 'utf8')) as CorpusRecord;
  return loaded.cases[name];
}

/** Whether cloud-init writes a cloud-config.txt for the case (else it raised, or yaml.dump did). */
export function writesCloudConfigTxt(r: CloudInitRecord): boolean {
  return r.cloudConfigTxt !== undefined || r.cloudConfigTxtSha256 !== undefined;
}

const sha256 = (text: string | Uint8Array) => createHash('sha256').update(text).digest('hex');

/**
 * null when output with this SHA-256 is the cloud-config.txt cloud-init writes; else how it differs, for the
 * assertion message (`shown`: the output, or its start).
 */
export function cloudConfigTxtMismatch(outputSha256: string, shown: string, r: CloudInitRecord): string | null {
  const expected = r.cloudConfigTxt !== undefined ? sha256(r.cloudConfigTxt) : r.cloudConfigTxtSha256;
  if (expected === undefined) return `cloud-init writes no cloud-config.txt (${r.error ?? 'yaml.dump raises'}); here:\n${shown.slice(0, 1000)}`;
  if (outputSha256 === expected) return null;
  const theirs = r.cloudConfigTxt ?? `${r.cloudConfigTxtLength} characters, sha256 ${r.cloudConfigTxtSha256}`;
  return `cloud-init writes:\n${theirs}\n--- here (sha256 ${outputSha256}):\n${shown.slice(0, 3000)}`;
}

/** The same for a text. */
export function differsFromCloudConfigTxt(text: string, r: CloudInitRecord): string | null {
  return cloudConfigTxtMismatch(sha256(text), text, r);
}

/**
 * Where a preview's header (wrapped lines joined again) does not tell what cloud-init did: a failure
 * where cloud-init writes cloud-config.txt or none where it does not (the exception's type named), a
 * part missing from the list or given another fate than cloud-init gave it (merged with the mergers
 * cloud-init used, or not merged), a warning of cloud-init's part handlers without its note.
 */
export function previewStoryProblems(header: string, failure: string | undefined, r: CloudInitRecord): string[] {
  const problems: string[] = [];
  if (!writesCloudConfigTxt(r)) {
    const why = r.error ? r.error.slice(0, r.error.indexOf(':')) : 'writing cloud-config.txt fails';
    if (!failure) problems.push(`cloud-init writes no cloud-config.txt (${r.error ?? 'yaml.dump raises'}); the preview says nothing failed`);
    else if (!failure.includes(why)) problems.push(`cloud-init fails with ${r.error ?? 'yaml.dump raising'}; the preview's failure does not name ${why}: ${failure}`);
    return problems;
  }
  if (failure) problems.push(`cloud-init writes cloud-config.txt; the preview says: ${failure}`);
  const listed = header.match(/^#\s+\d+\. .*$/gm) ?? [];
  if (r.partsCount !== undefined && listed.length !== r.partsCount) problems.push(`cloud-init's handlers see ${r.partsCount} part(s); the preview lists ${listed.length}`);
  for (const p of r.parts ?? []) {
    const line = listed.find((l) => l.includes(` ${p.filename} (${p.contentType}) from `));
    if (!line) {
      problems.push(`cloud-init's part ${p.filename} (${p.contentType}) is not listed`);
      continue;
    }
    const from = line.indexOf(' from ');
    // A long spec is wrapped at a `+`; joined again, the line has a space there.
    const verdict = line.slice(line.indexOf(': ', from) + 2).replace(/\+ /g, '+');
    if (p.merged === true && !verdict.startsWith(`merged with ${p.spec?.replace(/\.\.\.$/, '')}`)) problems.push(`cloud-init merges ${p.filename} with ${p.spec}; the preview says: ${verdict.slice(0, 300)}`);
    if (p.merged !== true && verdict.startsWith('merged with')) problems.push(`cloud-init does not merge ${p.filename}; the preview says: ${verdict.slice(0, 300)}`);
  }
  for (const w of r.warnings) {
    if (!w.logger.startsWith('cloudinit.handlers')) continue;
    // The words before any quoted value (cloud-init quotes the start of a part's data, as a repr).
    const words = w.message.split(/['"]/)[0].trim();
    if (!header.includes(`Note: ${words}`)) problems.push(`cloud-init warns "${w.message.slice(0, 200)}"; the preview has no note starting "${words}"`);
  }
  return problems;
}
