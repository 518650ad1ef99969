/**
 * MarkupSafe 2.1 (Debian bookworm's python3-markupsafe 2.1.2), as the Jinja
 * filters `escape`/`e`/`forceescape`/`striptags`/`xmlattr` and Markup's
 * operators use it: the HTML escaping of the five characters MarkupSafe
 * escapes, and `Markup.striptags` (comments and tags removed, whitespace
 * runs collapsed, entities decoded).
 *
 * Written from MarkupSafe's documented behaviour and checked against it by
 * test/oracle/jinja.diff.ts; no MarkupSafe code is reused.
 *
 * Residual differences: `striptags` decodes only the entities MarkupSafe
 * itself produces (`&amp; &lt; &gt; &#34; &#39; &quot; &apos;`) and numeric
 * references to printable characters; any other entity (Python's
 * html.unescape knows the whole HTML5 table and the Windows-1252 remapping
 * of &#128;-&#159;) is reported as something this tool cannot reproduce.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&#39;', '"': '&#34;' };

/** markupsafe.escape on the text of a value (the caller has made it a str). */
export function htmlEscape(s: string): string {
  return s.replace(/[&<>'"]/g, (c) => ESCAPES[c]);
}

/** Python's str.split() with no argument, then " ".join. */
function collapseWhitespace(s: string): string {
  return s.split(/[\t\n\v\f\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/).filter((x) => x !== '').join(' ');
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function printableCode(n: number): boolean {
  if (n === 9 || n === 10 || n === 13) return true;
  if (n >= 0x20 && n <= 0x7e) return true;
  if (n >= 0xa0 && n <= 0xd7ff) return true;
  return n >= 0xe000 && n <= 0xfdcf;
}

/**
 * html.unescape for the entities MarkupSafe's own escaping produces and
 * plain numeric references; `cannot(what)` is called for anything else.
 */
export function htmlUnescape(s: string, cannot: (what: string) => never): string {
  return s.replace(/&(#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[a-zA-Z][a-zA-Z0-9]*;?|#)?/g, (m, body: string | undefined) => {
    if (body === undefined || body === '#') return m;
    if (body.startsWith('#')) {
      if (!body.endsWith(';')) cannot(`the character reference ${JSON.stringify(m)} without ';' in striptags`);
      const n = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2, -1), 16) : parseInt(body.slice(1, -1), 10);
      if (!printableCode(n)) cannot(`the character reference ${JSON.stringify(m)} in striptags`);
      return String.fromCodePoint(n);
    }
    const name = body.endsWith(';') ? body.slice(0, -1) : null;
    if (name !== null && name in NAMED) return NAMED[name];
    return cannot(`the HTML entity ${JSON.stringify(m)} in striptags`);
  });
}

/** Markup(s).striptags() */
export function stripTags(s: string, cannot: (what: string) => never): string {
  const noComments = s.replace(/<!--[\s\S]*?-->/g, '');
  const noTags = noComments.replace(/<[\s\S]*?>/g, '');
  return htmlUnescape(collapseWhitespace(noTags), cannot);
}

/** do_xmlattr's test for a key it refuses (Debian's Jinja2 3.1.2 carries the fix). */
export const INVALID_ATTR_KEY = /[ \t\n\r\f\v/>=]/;
