// Draws the extension icon (media/icon.png, 128x128 RGBA) with Node only: shapes are rasterised with
// 4x4 supersampling and written as a PNG through zlib. Run: node media/make-icon.mjs
// Why a script: the PNG is reproducible and reviewable, and no image tool is needed at dev time.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const SIZE = 128;
const SS = 4; // samples per axis per pixel

function insideRoundedRect(x, y, x0, y0, x1, y1, r) {
  if (x < x0 || x > x1 || y < y0 || y > y1) return false;
  const cx = Math.min(Math.max(x, x0 + r), x1 - r);
  const cy = Math.min(Math.max(y, y0 + r), y1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

function insideTriangle(x, y, [ax, ay], [bx, by], [cx, cy]) {
  const d1 = (x - bx) * (ay - by) - (ax - bx) * (y - by);
  const d2 = (x - cx) * (by - cy) - (bx - cx) * (y - cy);
  const d3 = (x - ax) * (cy - ay) - (cx - ax) * (y - ay);
  const neg = d1 < 0 || d2 < 0 || d3 < 0;
  const pos = d1 > 0 || d2 > 0 || d3 > 0;
  return !(neg && pos);
}

const insideCircle = (x, y, cx, cy, r) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r;

function mix(a, b, t) {
  return a.map((v, i) => v + (b[i] - v) * t);
}

// Colour of one sample point, or null where transparent. Later layers paint over earlier ones.
function sample(x, y) {
  if (!insideRoundedRect(x, y, 4, 4, 124, 124, 26)) return null;
  const t = Math.min(1, Math.max(0, (x + y - 8) / 232));
  let colour = mix([30, 58, 138], [109, 40, 217], t); // deep blue to violet, diagonal
  // Play triangle, slightly right of centre so it looks optically centred.
  if (insideTriangle(x, y, [46, 36], [46, 88], [90, 62])) colour = [255, 255, 255];
  // Timeline: a dim track with a bright played part.
  if (insideRoundedRect(x, y, 26, 101, 102, 108, 3.5)) colour = mix(colour, [255, 255, 255], 0.35);
  if (insideRoundedRect(x, y, 26, 101, 70, 108, 3.5)) colour = [255, 255, 255];
  // "Live" dot with a white ring, top right.
  if (insideCircle(x, y, 99, 29, 13)) colour = [255, 255, 255];
  if (insideCircle(x, y, 99, 29, 9.5)) colour = [239, 68, 68];
  return colour;
}

function render() {
  const rgba = Buffer.alloc(SIZE * SIZE * 4);
  for (let py = 0; py < SIZE; py++) {
    for (let px = 0; px < SIZE; px++) {
      let r = 0, g = 0, b = 0, hits = 0;
      for (let sy = 0; sy < SS; sy++) {
        for (let sx = 0; sx < SS; sx++) {
          const c = sample(px + (sx + 0.5) / SS, py + (sy + 0.5) / SS);
          if (c) { r += c[0]; g += c[1]; b += c[2]; hits++; }
        }
      }
      const o = (py * SIZE + px) * 4;
      if (hits) {
        rgba[o] = Math.round(r / hits);
        rgba[o + 1] = Math.round(g / hits);
        rgba[o + 2] = Math.round(b / hits);
        rgba[o + 3] = Math.round((255 * hits) / (SS * SS));
      }
    }
  }
  return rgba;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

export function encodePng(rgba, width, height) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type RGBA
  // compression, filter, interlace: all 0
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 4 + 1)] = 0; // filter: none
    rgba.copy(raw, y * (width * 4 + 1) + 1, y * width * 4, (y + 1) * width * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = new URL('./icon.png', import.meta.url);
  writeFileSync(out, encodePng(render(), SIZE, SIZE));
  console.log(`wrote ${fileURLToPath(out)}`);
}
