// Draws the plugin's icons: SVG for actions, key states and the dial (scalable, so one file serves 72 px keys
// and 144 px ones), PNG where the manifest requires PNG (the plugin icon, 256 px and 512 px @2x as
// Elgato's guidelines ask). Plain Node (zlib for the PNG), so it runs offline. Run with `pnpm icons` after changing a
// shape; the output is committed.
import { Buffer } from 'node:buffer';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const imgs = join(dirname(fileURLToPath(import.meta.url)), '..', 'com.stagelink.mediaserver.sdPlugin', 'imgs');

function write(relative, content) {
  const file = join(imgs, relative);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
}

// ---- SVG ----------------------------------------------------------------------------------------------------

const WHITE = '#ffffff';
const DARK = '#101214';
const NEUTRAL = '#2b3036';
const GREEN = '#1f9d55';

function svg(size, body) {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 72 72">${body}</svg>\n`;
}

/** Glyphs drawn on a 72x72 grid, in one colour. */
const glyphs = {
  play: (c) => `<polygon points="24,16 24,56 56,36" fill="${c}"/>`,
  gauge: (c) =>
    `<path d="M12 50 A24 24 0 1 1 60 50" fill="none" stroke="${c}" stroke-width="7" stroke-linecap="round"/>` +
    `<line x1="36" y1="46" x2="50" y2="26" stroke="${c}" stroke-width="6" stroke-linecap="round"/>` +
    `<circle cx="36" cy="46" r="6" fill="${c}"/>`,
  pulse: (c) =>
    `<polyline points="6,38 22,38 30,18 42,56 50,38 66,38" fill="none" stroke="${c}" stroke-width="7" stroke-linejoin="round" stroke-linecap="round"/>`,
  knob: (c) =>
    `<circle cx="36" cy="36" r="24" fill="none" stroke="${c}" stroke-width="7"/>` +
    `<line x1="36" y1="36" x2="36" y2="16" stroke="${c}" stroke-width="7" stroke-linecap="round"/>`,
  stopwatch: (c) =>
    `<circle cx="36" cy="40" r="24" fill="none" stroke="${c}" stroke-width="7"/>` +
    `<line x1="36" y1="40" x2="46" y2="28" stroke="${c}" stroke-width="6" stroke-linecap="round"/>` +
    `<line x1="28" y1="8" x2="44" y2="8" stroke="${c}" stroke-width="6" stroke-linecap="round"/>` +
    `<line x1="36" y1="8" x2="36" y2="16" stroke="${c}" stroke-width="6"/>`,
  // Three stacked layers, as RenderStream composes a workload's output into the show.
  layers: (c) =>
    `<polygon points="36,10 62,22 36,34 10,22" fill="${c}"/>` +
    `<polyline points="10,36 36,48 62,36" fill="none" stroke="${c}" stroke-width="6" stroke-linejoin="round" stroke-linecap="round"/>` +
    `<polyline points="10,50 36,62 62,50" fill="none" stroke="${c}" stroke-width="6" stroke-linejoin="round" stroke-linecap="round"/>`,
  link: (c) =>
    `<rect x="10" y="24" width="22" height="24" rx="6" fill="none" stroke="${c}" stroke-width="6"/>` +
    `<rect x="40" y="24" width="22" height="24" rx="6" fill="none" stroke="${c}" stroke-width="6"/>` +
    `<line x1="26" y1="36" x2="46" y2="36" stroke="${c}" stroke-width="6" stroke-linecap="round"/>`,
};

/** An action-list icon: white on transparent (the app tints it). */
const listIcon = (glyph) => svg(20, glyphs[glyph](WHITE));
/** A key's default image, shown until the plugin paints the key. */
const keyImage = (glyph, background) => svg(72, `<rect width="72" height="72" fill="${background}"/>` + glyphs[glyph](WHITE));

write('plugin/category-icon.svg', svg(28, glyphs.link(WHITE)));
write('actions/transport/icon.svg', listIcon('play'));
write('actions/transport/key.svg', keyImage('play', NEUTRAL));
write('actions/fps/icon.svg', listIcon('gauge'));
write('actions/fps/key.svg', keyImage('gauge', NEUTRAL));
write('actions/health/icon.svg', listIcon('pulse'));
write('actions/health/key.svg', keyImage('pulse', NEUTRAL));
write('actions/level/icon.svg', listIcon('knob'));
write('actions/level/key.svg', keyImage('knob', NEUTRAL));
write('actions/level/dial.svg', svg(72, glyphs.knob(WHITE)));
write('actions/clock/icon.svg', listIcon('stopwatch'));
write('actions/clock/key.svg', keyImage('stopwatch', NEUTRAL));
write('actions/clock/dial.svg', svg(72, glyphs.stopwatch(WHITE)));
write('actions/renderstream/icon.svg', listIcon('layers'));
write('actions/renderstream/key.svg', keyImage('layers', NEUTRAL));

// ---- PNG (plugin icon) --------------------------------------------------------------------------------------

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** Encodes RGBA pixels (size x size) as a PNG file. */
function png(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    rows[y * (size * 4 + 1)] = 0; // no filter
    rgba.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const hex = (colour) => [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));

/** Inside tests on the unit square: a rounded dark tile, a green play triangle, a white level bar. */
function shapeAt(x, y) {
  const r = 0.18;
  const cx = Math.min(Math.max(x, r), 1 - r);
  const cy = Math.min(Math.max(y, r), 1 - r);
  if ((x - cx) ** 2 + (y - cy) ** 2 > r * r) return null;
  const inTriangle = x >= 0.3 && x <= 0.72 && Math.abs(y - 0.44) <= (0.72 - x) * 0.62;
  if (inTriangle) return hex(GREEN);
  if (x >= 0.22 && x <= 0.78 && y >= 0.78 && y <= 0.84) return hex(WHITE);
  return hex(DARK);
}

function pluginIcon(size) {
  const samples = 4;
  const pixels = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let covered = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const colour = shapeAt((px + (sx + 0.5) / samples) / size, (py + (sy + 0.5) / samples) / size);
          if (!colour) continue;
          covered++;
          r += colour[0];
          g += colour[1];
          b += colour[2];
        }
      }
      const offset = (py * size + px) * 4;
      if (covered > 0) {
        pixels[offset] = Math.round(r / covered);
        pixels[offset + 1] = Math.round(g / covered);
        pixels[offset + 2] = Math.round(b / covered);
      }
      pixels[offset + 3] = Math.round((covered / (samples * samples)) * 255);
    }
  }
  return png(size, pixels);
}

/** The plugin icon: 256 x 256, and 512 x 512 for high-density screens, as Elgato's guidelines ask. */
const PLUGIN_ICON_SIZE = 256;

write('plugin/marketplace.png', pluginIcon(PLUGIN_ICON_SIZE));
write('plugin/marketplace@2x.png', pluginIcon(PLUGIN_ICON_SIZE * 2));
