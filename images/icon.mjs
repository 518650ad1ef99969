// Draws images/icon.png (128×128): three offset cards, the parts, merging into one.
// No dependencies: 4× supersampled shapes, written as an 8-bit RGBA PNG with node's zlib.
// Run: node images/icon.mjs
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const SIZE = 128;
const SS = 4;
const N = SIZE * SS;

/** Signed distance to a rounded rectangle (x0,y0)-(x1,y1) with radius r, in supersampled pixels. */
function roundedRect(x0, y0, x1, y1, r) {
  return (x, y) => {
    const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
    const hx = (x1 - x0) / 2 - r, hy = (y1 - y0) / 2 - r;
    const dx = Math.max(Math.abs(x - cx) - hx, 0), dy = Math.max(Math.abs(y - cy) - hy, 0);
    return Math.hypot(dx, dy) - r;
  };
}
const s = (v) => v * SS;
const hex = (h) => [parseInt(h.slice(1, 3), 16), parseInt(h.slice(3, 5), 16), parseInt(h.slice(5, 7), 16)];

// back to front
const shapes = [
  { inside: roundedRect(s(4), s(4), s(124), s(124), s(24)), color: hex('#1f3b57') },
  // three parts, offset like a stack of files
  { inside: roundedRect(s(22), s(20), s(86), s(62), s(8)), color: hex('#4fb3bf') },
  { inside: roundedRect(s(32), s(40), s(96), s(82), s(8)), color: hex('#f2a541') },
  { inside: roundedRect(s(42), s(60), s(106), s(102), s(8)), color: hex('#f5f7fa') },
  // lines of "yaml" on the front card
  { inside: roundedRect(s(52), s(70), s(84), s(76), s(3)), color: hex('#1f3b57') },
  { inside: roundedRect(s(60), s(81), s(96), s(87), s(3)), color: hex('#4fb3bf') },
  { inside: roundedRect(s(60), s(92), s(90), s(98), s(3)), color: hex('#f2a541') },
];

const rgba = Buffer.alloc(SIZE * SIZE * 4);
for (let py = 0; py < SIZE; py++) {
  for (let px = 0; px < SIZE; px++) {
    let r = 0, g = 0, b = 0, a = 0;
    for (let sy = 0; sy < SS; sy++) {
      for (let sx = 0; sx < SS; sx++) {
        const x = px * SS + sx + 0.5, y = py * SS + sy + 0.5;
        let c = null;
        for (const sh of shapes) if (sh.inside(x, y) <= 0) c = sh.color;
        if (c) { r += c[0]; g += c[1]; b += c[2]; a += 1; }
      }
    }
    const o = (py * SIZE + px) * 4;
    if (a) { rgba[o] = Math.round(r / a); rgba[o + 1] = Math.round(g / a); rgba[o + 2] = Math.round(b / a); }
    rgba[o + 3] = Math.round((255 * a) / (SS * SS));
  }
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const len = Buffer.alloc(4); len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4); crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
};
const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(SIZE, 0); ihdr.writeUInt32BE(SIZE, 4);
ihdr[8] = 8; ihdr[9] = 6; ihdr[10] = 0; ihdr[11] = 0; ihdr[12] = 0; // 8-bit RGBA, no interlace
const raw = Buffer.alloc(SIZE * (SIZE * 4 + 1));
for (let y = 0; y < SIZE; y++) { raw[y * (SIZE * 4 + 1)] = 0; rgba.copy(raw, y * (SIZE * 4 + 1) + 1, y * SIZE * 4, (y + 1) * SIZE * 4); }
const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
writeFileSync(new URL('./icon.png', import.meta.url), png);
console.log(`images/icon.png: ${png.length} bytes`);
