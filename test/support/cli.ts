/** Runs the CLI in-process, capturing its output. */
import { main } from '../../server/src/cli/main';

export function runCli(argv: string[]): { code: number; stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  const code = main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

/** The same in a folder (for conformance cases, whose paths are relative). */
export function runCliIn(argv: string[], cwd: string): { code: number; stdout: string; stderr: string } {
  const previous = process.cwd();
  process.chdir(cwd);
  try {
    return runCli(argv);
  } finally {
    process.chdir(previous);
  }
}
