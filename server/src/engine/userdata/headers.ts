/** A MIME header list with the operations cloud-init applies to parts (Python `email.message` semantics). */

export interface Header {
  name: string;
  value: string;
}

export class HeaderList {
  constructor(readonly list: Header[] = []) {}

  /** `msg.get(name)`: the first value, names compared case-insensitively. */
  get(name: string): string | null {
    const lower = name.toLowerCase();
    return this.list.find((h) => h.name.toLowerCase() === lower)?.value ?? null;
  }

  has(name: string): boolean {
    return this.get(name) !== null;
  }

  /** `del msg[name]`: removes every header of that name. */
  delete(name: string): void {
    const lower = name.toLowerCase();
    for (let i = this.list.length - 1; i >= 0; i--) if (this.list[i].name.toLowerCase() === lower) this.list.splice(i, 1);
  }

  /** `msg[name] = value` / `add_header`: appends. */
  add(name: string, value: string): void {
    this.list.push({ name, value });
  }

  /** cloud-init's `_replace_header`: delete, then append at the end. */
  replace(name: string, value: string): void {
    this.delete(name);
    this.add(name, value);
  }

  /** Python's `dict(msg)`: every spelling maps to the first value found case-insensitively. */
  toDict(): Record<string, string> {
    const dict: Record<string, string> = {};
    for (const h of this.list) if (!(h.name in dict)) dict[h.name] = this.get(h.name) as string;
    return dict;
  }

  copy(): HeaderList {
    return new HeaderList(this.list.map((h) => ({ ...h })));
  }
}

/** `_set_filename`: a fresh `Content-Disposition: attachment; filename="..."`. */
export function setFilename(headers: HeaderList, filename: string): void {
  headers.delete('Content-Disposition');
  headers.add('Content-Disposition', `attachment; filename="${filename.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`);
}
