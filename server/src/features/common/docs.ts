/**
 * Catalogue entries rendered for hover and completion. All facts come
 * from engine/spec/catalogue.ts; this file only arranges them.
 */
import { MarkupContent, MarkupKind } from 'vscode-languageserver';
import { HEADER_LINES, HeaderDoc, MERGERS, MERGER_NAMES, MergerName, OPTIONS, OptionName } from '../../engine/spec/catalogue';

/** Markdown, or the same text without markup for clients that only show plain text. */
export function markup(markdown: string, asMarkdown: boolean): MarkupContent {
  if (asMarkdown) return { kind: MarkupKind.Markdown, value: markdown };
  const plain = markdown
    .replace(/^```\w*\n?/gm, '')
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/`([^`]+)`/g, '$1');
  return { kind: MarkupKind.PlainText, value: plain.trim() };
}

function example(lines: readonly [string, string] | undefined): string {
  return lines ? `\n\n\`\`\`yaml\n${lines[0]}\n${lines[1]}\n\`\`\`` : '';
}

export function mergerMarkdown(merger: MergerName, writtenAs?: string): string {
  const doc = MERGERS[merger];
  const alias = writtenAs && writtenAs !== merger ? ` (written \`${writtenAs}\`)` : '';
  return (
    `**${merger}()**${alias}: ${doc.summary}\n\n` +
    `Handles ${doc.handles}.\n\n` +
    `Without options: ${doc.defaultBehaviour}\n\n` +
    `Options it reads: ${doc.options.map((o) => `\`${o}\``).join(', ')}.` +
    example(doc.example)
  );
}

/** What an option does for one merger (or for every merger that reads it, when the merger is unknown). */
export function optionMarkdown(option: OptionName, merger?: MergerName): string {
  const doc = OPTIONS[option];
  if (merger) {
    const effect = doc.effect[merger];
    if (!effect) return `**${option}** in ${merger}(): no effect. ${doc.ignoredNote}`;
    return `**${option}** in ${merger}(): ${effect}` + example(doc.example);
  }
  const lines = MERGER_NAMES.filter((m) => doc.effect[m]).map((m) => `- ${m}(): ${doc.effect[m]}`);
  return `**${option}**\n\n${lines.join('\n')}` + example(doc.example);
}

export function headerMarkdown(doc: HeaderDoc): string {
  return `**${doc.label}**: ${doc.summary}\n\n${doc.detail}`;
}

/** Header lines, longest first, as cloud-init's content sniffing tests them. */
export const HEADER_PREFIXES = Object.keys(HEADER_LINES).sort((a, b) => b.length - a.length);
