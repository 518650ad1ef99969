/** The oracle's command-line arguments, as `cloud-config-merge` spells them. */
export function translateOracleArgs(args: string[]): string[] {
  const argv: string[] = [];
  let raw = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--mode') {
      const m = args[++i];
      argv.push('--mode', m === 'userdata' ? 'user-data' : m === 'mergemany' ? 'system' : m);
    } else if (a === '--raw') raw = true;
    // The CLI reads `.json` value files with Python's JSON rules and others as YAML, by name.
    else if (a === '--json' || a === '--yaml') continue;
    else argv.push(a);
  }
  // Without --raw the oracle prints canonical JSON.
  if (!raw) argv.push('--format', 'json');
  return argv;
}
