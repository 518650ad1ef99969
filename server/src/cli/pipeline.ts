/**
 * `--from-terraform FILE` and `--rendered BLOB...`: user-data as Terraform's
 * or Pulumi's cloudinit provider builds it, merged as cloud-init merges it,
 * with findings that name the part the author wrote.
 */
import { runSet } from '../engine/outcome/run';
import { TerraformConfig, TerraformInputError, readTerraformJson, terraformUserData, unwrapRendered } from '../engine/userdata/terraform';
import { AuthoredPart, declaredParts, findingLine, labelledFindings } from '../engine/lint/partFindings';
import { CliOptions, UsageError } from './args';
import { CliIO, InputError, read, runOptions } from './io';
import { writeMerge, writePreview } from './merge';
import { wrapHeaderLine } from '../engine/render/header';

interface PipelineInput {
  /** The name the output and the findings use (a Terraform address, a file). */
  name: string;
  bytes: Uint8Array;
  /** Per MIME part: what the author wrote, and how to name the part (none: the blob's own parts). */
  parts: AuthoredPart[];
}

function terraformInputs(o: CliOptions, path: string): PipelineInput[] {
  let configs: TerraformConfig[];
  try {
    configs = readTerraformJson(new TextDecoder().decode(read(o, path)));
  } catch (e) {
    if (e instanceof TerraformInputError) throw new InputError(`${path}: ${e.message}`);
    throw e;
  }
  if (o.address !== undefined) {
    const chosen = configs.filter((c) => c.address === o.address);
    if (!chosen.length) throw new InputError(`${path}: no cloudinit_config at ${o.address} (found: ${configs.map((c) => c.address).join(', ') || 'none'})`);
    configs = chosen;
  }
  if (!configs.length) throw new InputError(`${path}: no cloudinit_config data source or resource in it`);
  return configs.map((c) => {
    let bytes: Uint8Array;
    try {
      bytes = terraformUserData(c).bytes;
    } catch (e) {
      if (e instanceof TerraformInputError) throw new InputError(`${path}: ${c.address}: ${e.message}`);
      throw e;
    }
    return { name: c.address, bytes, parts: declaredParts(c) };
  });
}

function renderedInputs(o: CliOptions): PipelineInput[] {
  if (!o.files.length) throw new UsageError('--rendered needs at least one FILE');
  return o.files.map((f) => {
    const { bytes } = unwrapRendered(read(o, f));
    return { name: f, bytes, parts: [] };
  });
}

export function pipelineMode(o: CliOptions, io: CliIO): number {
  if (o.fromTerraform !== undefined && o.rendered) throw new UsageError('--from-terraform and --rendered do not go together');
  if (o.fromTerraform !== undefined && o.files.length) throw new UsageError('--from-terraform reads its one FILE: no other FILE');
  if (o.mode !== 'user-data') throw new UsageError(`${o.fromTerraform !== undefined ? '--from-terraform' : '--rendered'} works in user-data mode only`);
  const inputs = o.fromTerraform !== undefined ? terraformInputs(o, o.fromTerraform) : renderedInputs(o);
  let worst = 0;
  for (const input of inputs) {
    // Several configs (or blobs) are separate user-data, one instance each: each one has its own output.
    if (inputs.length > 1) io.stdout(`==> ${input.name} <==\n`);
    // One run: the findings, and the output, of the same merge.
    const outcome = runSet('user-data', { files: [{ name: input.name, bytes: input.bytes }] }, runOptions(o, io));
    const run = outcome.kind === 'user-data' ? outcome.run : undefined;
    const findings = run ? labelledFindings(input.bytes, run, input.parts, o.version ?? 'current', o.limits.maxDecompressedBytes).map(findingLine) : [];
    for (const f of findings) io.stderr(`${input.name}: ${f}\n`);
    let code: number;
    if (o.format === 'preview') {
      // The editor's preview text: the findings under the title line, as the editor shows them.
      let text = '';
      code = writePreview(o, { stdout: (t) => (text += t), stderr: (t) => io.stderr(t) }, outcome);
      const lines = findings.flatMap((f) => wrapHeaderLine(`# Finding: ${f.replace(/[\r\n]+/g, ' ')}`).map((l) => l + '\n')).join('');
      const firstBreak = text.indexOf('\n');
      io.stdout(firstBreak < 0 ? lines + text : text.slice(0, firstBreak + 1) + lines + text.slice(firstBreak + 1));
    } else {
      code = writeMerge(o, io, outcome);
    }
    worst = Math.max(worst, code);
  }
  return worst;
}
