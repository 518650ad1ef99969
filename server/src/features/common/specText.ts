/**
 * Merge specs as WRITTEN, with positions: a tolerant reading that still
 * finds merger names and option words when cloud-init would reject the
 * spec, so hover, completion and refactors work while the user is typing.
 * What cloud-init makes of the spec always comes from the engine.
 */
import { PyDict, PyValue, TextSpan } from '../../engine/py/values';
import { MergerName, OptionName, OPTION_NAMES, canonicalMergerName } from '../../engine/spec/catalogue';
import { SpecSite } from '../../engine/lint/analyzeDocument';
import { ValueSpans } from '../../engine/spec/parse';
import { pyRStrip, pyStrip, pyStripSpan } from '../../engine/py/str';
import { pyStrRepr } from '../../engine/py/repr';

export interface WrittenOption {
  word: string;
  span: TextSpan;
}

export interface WrittenMerger {
  name: string;
  nameSpan: TextSpan;
  /** Offset of '(' (string form). */
  open?: number;
  /** Offset of the last ')' (string form). */
  close?: number;
  options: WrittenOption[];
  /** For the list form, `settings` given as one string or mapping: option words are not positions. */
  settingsSpan?: TextSpan;
}

/**
 * Stripped as Python strips (not JavaScript's trim, which also strips U+FEFF), lower-cased, dashes
 * as underscores: how the string form reads a name or an option.
 */
export function normalizeWord(word: string): string {
  return pyStrip(word).toLowerCase().replace(/-/g, '_');
}

/** A written word as a reader can see it: as is, or as Python's repr when it holds characters that do not show (U+FEFF ...). */
export function shownWord(word: string): string {
  const repr = pyStrRepr(word);
  return repr === `'${word}'` ? word : repr;
}

export function mergerOf(name: string): MergerName | undefined {
  return canonicalMergerName(normalizeWord(name));
}

export function optionOf(word: string): OptionName | undefined {
  const normal = normalizeWord(word);
  return (OPTION_NAMES as string[]).includes(normal) ? (normal as OptionName) : undefined;
}

/** The pieces of a string-form spec (`raw` is the text as it stands in the document, at `base`). */
export function scanStringSpec(raw: string, base: number): WrittenMerger[] {
  const mergers: WrittenMerger[] = [];
  let pieceStart = 0;
  for (const piece of raw.split('+')) {
    const offset = pieceStart;
    pieceStart += piece.length + 1;
    const [lead, trimmedEnd] = pyStripSpan(piece);
    if (lead >= trimmedEnd) continue;
    const open = piece.indexOf('(');
    const nameEnd = open >= 0 ? lead + pyRStrip(piece.slice(lead, open)).length : trimmedEnd;
    const name = piece.slice(lead, nameEnd);
    const written: WrittenMerger = { name, nameSpan: { start: base + offset + lead, end: base + offset + nameEnd }, options: [] };
    if (open >= 0) {
      const close = piece.lastIndexOf(')');
      written.open = base + offset + open;
      if (close > open) written.close = base + offset + close;
      const inner = piece.slice(open + 1, close > open ? close : trimmedEnd);
      let at = open + 1;
      for (const word of inner.split(',')) {
        const [wl, we] = pyStripSpan(word);
        if (we > wl) written.options.push({ word: word.slice(wl, we), span: { start: base + offset + at + wl, end: base + offset + at + we } });
        at += word.length + 1;
      }
    }
    mergers.push(written);
  }
  return mergers;
}

/** The mergers of a spec site, with positions in the document. */
export function writtenMergers(site: SpecSite, documentText: string): WrittenMerger[] {
  if (site.form === 'string') return scanStringSpec(documentText.slice(site.valueSpan.start, site.valueSpan.end), site.valueSpan.start);
  return listFormMergers(site.value, site.spans);
}

function listFormMergers(value: PyValue, spans: ValueSpans | undefined): WrittenMerger[] {
  if (!Array.isArray(value)) return [];
  const mergers: WrittenMerger[] = [];
  value.forEach((element, i) => {
    const elementSpans = spans?.items?.[i];
    if (element instanceof PyDict) {
      const name = element.get('name');
      const nameSpan = elementSpans?.entries?.get('name')?.value.span;
      if (typeof name !== 'string' || !nameSpan) return;
      const settings = element.get('settings');
      const settingsSpans = elementSpans?.entries?.get('settings')?.value;
      const written: WrittenMerger = { name, nameSpan, options: [] };
      if (Array.isArray(settings)) {
        settings.forEach((o, j) => {
          const span = settingsSpans?.items?.[j]?.span;
          if (typeof o === 'string' && span) written.options.push({ word: o, span });
        });
      } else if (settingsSpans?.span) written.settingsSpan = settingsSpans.span;
      mergers.push(written);
    } else if (Array.isArray(element)) {
      const items = elementSpans?.items;
      const name = element[0];
      if (typeof name !== 'string' || !items?.[0]?.span) return;
      const written: WrittenMerger = { name, nameSpan: items[0].span, options: [] };
      element.slice(1).forEach((o, j) => {
        const span = items[j + 1]?.span;
        if (typeof o === 'string' && span) written.options.push({ word: o, span });
      });
      mergers.push(written);
    }
  });
  return mergers;
}

export function contains(span: TextSpan | undefined, offset: number): boolean {
  return !!span && span.start <= offset && offset <= span.end;
}
