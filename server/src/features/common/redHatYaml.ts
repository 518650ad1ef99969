/**
 * The files Red Hat YAML validates with cloud-init's schema, as the client reports them
 * (`schema.validatedByRedHatYaml`, client/src/redHatYaml.ts): on those our schema findings are left to it,
 * so a problem is not reported twice. Each entry is one of its associations (SchemaStore's `fileMatch`
 * for cloud-init, or one `yaml.schemas` entry's files), matched as yaml-language-server 1.25 matches
 * them (FilePatternAssociation in its yamlSchemaService): a leading `!` excludes, a leading `/` is
 * dropped, every pattern is prefixed with `**` and a slash, and picomatch (its own default options, so dot-folders
 * and dot-files are not matched by `*` or `**`) tests the document's URI as the editor sends it.
 */
import picomatch from 'picomatch';

/** The settings value, read leniently: a string is an association of one pattern. At most 100. */
export function redHatYamlAssociations(raw: unknown): string[][] {
  if (!Array.isArray(raw)) return [];
  const patterns = (v: unknown) => (typeof v === 'string' ? [v] : Array.isArray(v) ? v : []).filter((p): p is string => typeof p === 'string' && p.length > 0);
  return raw.map(patterns).filter((a) => a.length).slice(0, 100);
}

const compiled = new Map<string, (uri: string) => boolean>();

function associationMatcher(patterns: readonly string[]): (uri: string) => boolean {
  const key = JSON.stringify(patterns);
  let matcher = compiled.get(key);
  if (matcher) return matcher;
  const positive: string[] = [];
  const negative: string[] = [];
  for (const written of patterns) {
    const negated = written.startsWith('!');
    let pattern = negated ? written.slice(1) : written;
    if (pattern[0] === '/') pattern = pattern.slice(1);
    if (pattern.length) (negated ? negative : positive).push(`**/${pattern}`);
  }
  try {
    const isMatch = picomatch(positive, { noglobstar: false });
    const isNegMatch = picomatch(negative, { noglobstar: false });
    matcher = (uri) => isMatch(uri) && !isNegMatch(uri);
  } catch {
    // yaml-language-server matches nothing with an association whose patterns picomatch refuses.
    matcher = () => false;
  }
  if (compiled.size > 200) compiled.clear();
  compiled.set(key, matcher);
  return matcher;
}

/** Whether Red Hat YAML validates the document at `uri` (as the editor sends it) with cloud-init's schema. */
export function validatedByRedHatYaml(uri: string, associations: readonly (readonly string[])[]): boolean {
  return associations.some((patterns) => associationMatcher(patterns)(uri));
}
