/**
 * `cloud-config-merge make-mime`: MIME user-data from files, as
 * `cloud-init devel make-mime` writes it (engine/userdata/makeMime.ts), with
 * an optional merge type per part and Terraform's gzip + base64.
 */
import { existsSync } from 'node:fs';
import { DEFAULT_LIMITS } from '../engine/limits';
import { MakeMimeError, MAKE_MIME_TYPES, MimeAttachment, attachmentText, inferSubtype, makeMime, subtypeOf, unknownTypes } from '../engine/userdata/makeMime';
import { wrapLikeTerraform } from '../engine/userdata/terraform';
import { lintStringSpec } from '../engine/lint/specLint';
import { readInput, InputError, CliIO } from './io';
import { pushAll } from '../engine/arrays';
import { nearest } from '../engine/findings/findings';

export const MAKE_MIME_USAGE = `Usage: cloud-config-merge make-mime [options] FILE[:CONTENT-TYPE[:MERGE-TYPE]]...

Writes MIME multipart user-data to stdout, as \`cloud-init devel make-mime\` writes it (only the
boundary differs): one text part per FILE, in order, base64-encoded, named by FILE as given.

  CONTENT-TYPE   cloud-config, x-shellscript, jinja2, ... (or text/cloud-config); without it, the type
                 the file's first line announces to cloud-init (#cloud-config, #!, ## template: jinja)
  MERGE-TYPE     a merge spec for the part, written as an X-Merge-Type header (as Terraform writes
                 merge_type), e.g. a.yaml:cloud-config:list(append)+dict(recurse_array)+str()

Options:
  -a, --attach FILE:CONTENT-TYPE   cloud-init's own spelling of an attachment (split at the first colon)
  --gzip --base64    gzip the whole text, then base64-encode it (Terraform's gzip and base64_encode);
                     --base64 alone encodes the plain text; --gzip needs --base64, as in Terraform
  --boundary B       use this boundary instead of a random one in Python's format
  -f, --force        write parts whose content type no cloud-init handler announces (else exit 2)
  -l, --list-types   list the content types cloud-init handles
  --limit maxFileBytes=N   largest FILE read (default ${DEFAULT_LIMITS.maxFileBytes})

A FILE whose name holds a colon is taken whole when that file exists.`;

interface MakeMimeOptions {
  attachments: Array<{ path: string; type?: string; mergeType?: string }>;
  gzip: boolean;
  base64: boolean;
  boundary?: string;
  force: boolean;
  listTypes: boolean;
  help: boolean;
  maxBytes: number;
}

class MakeMimeUsage extends Error {}

/** `FILE[:TYPE[:MERGE]]`: the whole argument when that file exists, else split at the first two colons. */
function splitSpec(arg: string): { path: string; type?: string; mergeType?: string } {
  if (existsSync(arg)) return { path: arg };
  const first = arg.indexOf(':');
  if (first < 0) return { path: arg };
  const rest = arg.slice(first + 1);
  const second = rest.indexOf(':');
  return second < 0 ? { path: arg.slice(0, first), type: rest } : { path: arg.slice(0, first), type: rest.slice(0, second), mergeType: rest.slice(second + 1) };
}

function parse(argv: string[]): MakeMimeOptions {
  const o: MakeMimeOptions = { attachments: [], gzip: false, base64: false, force: false, listTypes: false, help: false, maxBytes: DEFAULT_LIMITS.maxFileBytes };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new MakeMimeUsage(`${arg} needs a value`);
      return argv[++i];
    };
    if (arg === '--') {
      pushAll(o.attachments, argv.slice(i + 1).map(splitSpec));
      break;
    }
    switch (arg) {
      case '-a':
      case '--attach': {
        const v = value();
        const colon = v.indexOf(':');
        if (colon < 0) throw new MakeMimeUsage(`--attach wants FILE:CONTENT-TYPE, got '${v}'`);
        o.attachments.push({ path: v.slice(0, colon), type: v.slice(colon + 1) });
        break;
      }
      case '--gzip':
        o.gzip = true;
        break;
      case '--base64':
        o.base64 = true;
        break;
      case '--boundary':
        o.boundary = value();
        break;
      case '-f':
      case '--force':
        o.force = true;
        break;
      case '-l':
      case '--list-types':
        o.listTypes = true;
        break;
      case '-h':
      case '--help':
        o.help = true;
        break;
      case '--limit': {
        const m = /^maxFileBytes=(\d+)$/.exec(value());
        if (!m || Number(m[1]) < 1) throw new MakeMimeUsage('make-mime takes only --limit maxFileBytes=N (a positive integer)');
        o.maxBytes = Number(m[1]);
        break;
      }
      default:
        if (arg.startsWith('-') && arg !== '-') {
          const guess = nearest(arg.replace(/^-+/, '').split('=')[0], MAKE_MIME_FLAGS);
          throw new MakeMimeUsage(`unknown option ${arg}${guess ? ` (did you mean --${guess}?)` : ''}`);
        }
        o.attachments.push(splitSpec(arg));
    }
  }
  if (o.gzip && !o.base64) throw new MakeMimeUsage('--gzip needs --base64 (as Terraform requires base64_encode with gzip)');
  if (o.boundary !== undefined && !/^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(o.boundary)) throw new MakeMimeUsage('--boundary wants printable ASCII without leading or trailing blanks');
  if (o.boundary !== undefined && o.boundary.includes('"')) throw new MakeMimeUsage('--boundary cannot hold a double quote');
  return o;
}

/** The long flags make-mime takes, for the nearest one to a mistyped flag. */
const MAKE_MIME_FLAGS = ['attach', 'gzip', 'base64', 'boundary', 'force', 'list-types', 'help', 'limit'];

export function makeMimeCommand(argv: string[], io: CliIO): number {
  let o: MakeMimeOptions;
  try {
    o = parse(argv);
  } catch (e) {
    if (!(e instanceof MakeMimeUsage)) throw e;
    // One line, as the main command says it: the whole help only when asked for.
    io.stderr(`cloud-config-merge make-mime: ${e.message}; see cloud-config-merge make-mime --help\n`);
    return 2;
  }
  if (o.help) {
    io.stdout(MAKE_MIME_USAGE + '\n');
    return 0;
  }
  if (o.listTypes) {
    io.stdout(MAKE_MIME_TYPES.map((t) => t.slice('text/'.length)).join('\n') + '\n');
    return 0;
  }
  if (!o.attachments.length) {
    io.stderr(`cloud-config-merge make-mime: needs at least one FILE; see cloud-config-merge make-mime --help\n`);
    return 2;
  }
  try {
    const attachments: MimeAttachment[] = o.attachments.map((a) => {
      const text = attachmentText(a.path, readInput(a.path, { maxBytes: o.maxBytes }));
      const subtype = a.type !== undefined && a.type !== '' ? subtypeOf(a.type) : inferSubtype(a.path, text);
      return { filename: a.path, subtype, text, mergeType: a.mergeType };
    });
    const problems = unknownTypes(attachments);
    for (const p of problems) io.stderr(`cloud-config-merge make-mime: ${o.force ? 'warning' : 'error'}: ${p}\n`);
    if (problems.length && !o.force) {
      io.stderr('cloud-config-merge make-mime: nothing written; --force writes them anyway (cloud-init ignores such parts)\n');
      return 2;
    }
    // A merge type that cloud-init rejects makes it skip the whole part: say so, as the editor would.
    attachments.forEach((a, i) => {
      if (a.mergeType === undefined) return;
      const lint = lintStringSpec(a.mergeType, 0, { context: 'part', label: 'X-Merge-Type', span: { start: 0, end: a.mergeType.length } });
      for (const f of lint.findings) if (f.severity === 'error' || f.severity === 'warning') io.stderr(`cloud-config-merge make-mime: ${f.severity}: attachment ${i + 1} (${a.filename}): merge type '${a.mergeType}': ${f.message}\n`);
    });
    const text = makeMime(attachments, o.boundary);
    if (!o.base64) {
      io.stdout(text);
    } else {
      io.stdout(String(wrapLikeTerraform(new TextEncoder().encode(text), { gzip: o.gzip, base64: true })) + '\n');
    }
    return 0;
  } catch (e) {
    if (e instanceof MakeMimeError || e instanceof InputError) {
      io.stderr(`cloud-config-merge make-mime: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}
