'use strict';
// How `npm run bench -- --only … --write` updates docs/benchmarks.md: the sections and Targets rows it
// measured replace the old ones; everything else stays as the earlier run measured it.

/**
 * `--only … --write`: the sections measured by this run replace those of the existing file (matched by
 * their "## " title); the others stay, and the file says which sections were measured when.
 */
function spliceSections(existing, fresh, command, when) {
  const split = (text) => {
    const parts = text.split(/\n(?=## )/);
    return { head: parts[0], sections: parts.slice(1).map((p) => ({ title: p.slice(0, p.indexOf('\n')), body: p })) };
  };
  const old = split(existing);
  const now = split(fresh);
  const measured = now.sections.filter((s) => !/^## (Machine|Commands|Targets|Gaps|Method|5\. Growth)/.test(s.title));
  const freshTargets = now.sections.find((s) => s.title === '## Targets');
  const out = old.sections.map((s) => (s.title === '## Targets' && freshTargets ? spliceTargets(s.body, freshTargets.body) : measured.find((m) => m.title === s.title)?.body ?? s.body));
  for (const m of measured) {
    if (out.includes(m.body)) continue;
    // A new section goes before the first one whose number is larger (## 4. after ## 3c.).
    const at = old.sections.findIndex((s) => s.title.slice(3) > m.title.slice(3) && /^## \d/.test(s.title));
    if (at < 0) out.push(m.body);
    else out.splice(out.indexOf(old.sections[at].body), 0, m.body);
  }
  const names = measured.map((m) => m.title.slice(3).split(' ')[0].replace(/\.$/, ''));
  // Earlier partial runs keep their note for the sections this one did not measure again.
  const earlier = [...old.head.matchAll(NOTE)].map((m) => ({ names: m[1].split(', ').filter((n) => !names.includes(n)), when: m[2], command: m[3] }));
  const notes = [...earlier.filter((n) => n.names.length), { names, when: when.toISOString().replace(/\.\d+Z$/, 'Z'), command }].map(noteLine).join('');
  return [old.head.replace(NOTE, '') + notes, ...out].join('\n').replace(/\n+$/, '');
}

const NOTE = /\n> Sections? (.*?) (?:was|were) measured again on (\S+) \(`([^`]*)`\), with their lines in the Targets table; the rest is from the run above\.\n/g;

function noteLine({ names, when, command }) {
  return `\n> ${names.length === 1 ? 'Section' : 'Sections'} ${names.join(', ')} ${names.length === 1 ? 'was' : 'were'} measured again on ${when} (\`${command}\`), with their lines in the Targets table; the rest is from the run above.\n`;
}

/** Targets a stricter one replaced: an `--only … --write` run drops their rows and gap notes. */
const RETIRED = new Set(['preview refresh p95 < 100 ms for 100 parts (after a one-character edit of one part)']);

/**
 * The Targets section of an `--only … --write` run: the rows (and gap notes) of the targets this run
 * measured replace the rows with the same area and target; the other rows stay as they were measured.
 */
function spliceTargets(existing, fresh) {
  const rowKey = (line) => line.split(' | ').slice(0, 2).join(' | ');
  const isRow = (line) => line.startsWith('| ') && !/^\| (Area|:--)/.test(line);
  const gapKey = (line) => /^- \*\*(.+?)\*\* — /.exec(line)?.[1];
  const freshLines = fresh.split('\n');
  const freshRows = new Map(freshLines.filter(isRow).map((l) => [rowKey(l), l]));
  const freshGaps = new Map(freshLines.filter((l) => gapKey(l)).map((l) => [gapKey(l), l]));
  const measuredTargets = new Set([...freshRows.keys()].map((k) => k.split(' | ')[1]));
  const lines = existing.split('\n');
  const out = [];
  for (const line of lines) {
    const target = isRow(line) ? rowKey(line).split(' | ')[1] : gapKey(line);
    if (target !== undefined && RETIRED.has(target)) continue;
    if (isRow(line) && freshRows.has(rowKey(line))) {
      out.push(freshRows.get(rowKey(line)));
      freshRows.delete(rowKey(line));
      continue;
    }
    const gap = gapKey(line);
    if (gap !== undefined && measuredTargets.has(gap)) {
      if (freshGaps.has(gap)) out.push(freshGaps.get(gap));
      freshGaps.delete(gap);
      continue;
    }
    out.push(line);
  }
  // Targets this file did not have yet: their rows after the table's last row, their gaps after the last gap.
  const lastRow = out.findLastIndex(isRow);
  out.splice(lastRow + 1, 0, ...freshRows.values());
  if (freshGaps.size) {
    const lastGap = out.findLastIndex((l) => gapKey(l) !== undefined);
    if (lastGap >= 0) out.splice(lastGap + 1, 0, ...freshGaps.values());
    else out.splice(out.findLastIndex(isRow) + 1, 0, '', '### Gaps explained', '', ...freshGaps.values());
  }
  return out.join('\n');
}

module.exports = { spliceSections, spliceTargets };
