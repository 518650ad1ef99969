/**
 * The files Red Hat YAML validates with cloud-init's schema, as the client reports them
 * (`schema.validatedByRedHatYaml`, client/src/redHatYaml.ts): on those our schema findings are left to it,
 * so a problem is not reported twice. Patterns as yaml-language-server reads its `yaml.schemas` and
 * SchemaStore's `fileMatch`: one without a `/` matches the file name, one with a `/` the end of the path;
 * `*` and `?` stay within a path segment, `**` crosses them.
 */
const compiled = new Map<string, RegExp>();

function patternRegExp(glob: string): RegExp {
  let re = compiled.get(glob);
  if (re) return re;
  let body = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      body += '.*';
      i++;
      if (glob[i + 1] === '/') i++;
    } else if (c === '*') body += '[^/]*';
    else if (c === '?') body += '[^/]';
    else body += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  const anchored = glob.includes('/') ? `(?:^|/)${body.replace(/^\\?\//, '')}$` : `(?:^|/)${body}$`;
  re = new RegExp(anchored);
  compiled.set(glob, re);
  return re;
}

/** Whether Red Hat YAML validates the file at `path` (a file-system path) with cloud-init's schema. */
export function validatedByRedHatYaml(path: string, globs: readonly string[]): boolean {
  return globs.some((g) => patternRegExp(g).test(path));
}
