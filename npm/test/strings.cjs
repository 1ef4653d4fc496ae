// JSON texts that put every escape class, raw non-ASCII (2-, 3- and 4-byte UTF-8, non-
// Latin-1 and astral) and string errors at every offset of the blocks the module scans and
// transcodes in (8 and 16 bytes, 16 UTF-16 units, with WebAssembly SIMD), plus arrays of
// records that repeat the same member names (the core reuses the order found for the first):
// for comparison with JSON.parse + canonicalizeValue (plain JavaScript) in Node and Chromium.
'use strict';

const PIECES = [
  '\\"',
  '\\\\',
  '\\/',
  '\\b',
  '\\f',
  '\\n',
  '\\r',
  '\\t',
  '\\u0000',
  '\\u001F',
  '\\u001f',
  '\\u007f',
  '\\u00e9',
  '\\u20AC',
  '\\uD83D\\uDE00',
  '/',
  '\u007f',
  '\u00e9',
  '\u20ac',
  '\u2028',
  '\uD83D\uDE00',
  '\uffff',
  '日本',
];

const pad = (n) => Array.from({ length: n }, (_, i) => String.fromCharCode(97 + (i % 26))).join('');

/** Valid documents: each piece at every offset of 0..maxLen ASCII characters, as a value
 * and as a member name, shifted by 0..2 spaces; pairs of pieces with gaps around 8 and 16. */
function stringDocs(maxLen = 34) {
  const docs = [];
  for (const piece of PIECES) {
    for (let len = 0; len < maxLen; len++) {
      const p = pad(len);
      for (let at = 0; at <= len; at++) {
        const s = p.slice(0, at) + piece + p.slice(at);
        docs.push(`${' '.repeat(len % 3)}["${s}"]`);
        docs.push(`{"${s}":"${s}","${p}":${len}}`);
      }
    }
    for (const piece2 of PIECES) {
      for (const gap of [0, 1, 7, 8, 15, 16, 17]) docs.push(`"${piece}${'x'.repeat(gap)}${piece2}"`);
    }
  }
  return docs;
}

/** Invalid documents with the UTF-16 index of the error and its kind: a raw control
 * character at every offset (before and after an escape, in values and names). */
function stringErrors(maxLen = 34) {
  const out = [];
  for (let len = 0; len < maxLen; len++) {
    const p = pad(len);
    for (let at = 0; at <= len; at++) {
      for (const ctl of ['\u0000', '\u0001', '\t', '\n', '\u001f']) {
        for (const [open, close] of [
          ['["', '"]'],
          ['["\\n', '"]'],
          ['{"é', '":1}'],
        ]) {
          const text = open + p.slice(0, at) + ctl + p.slice(at) + close;
          out.push({ text, index: open.length + at, kind: 'ControlCharacterInString' });
        }
      }
    }
  }
  return out;
}

/** Arrays of records with the same 12+ names in one shuffled order, with look-alikes (one
 * name changed, the same characters split differently) and nested copies. */
function shapeDocs(count = 60) {
  let x = 0x9e3779b9;
  const next = (n) => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x % n;
  };
  const alphabet = ['a', 'b', 'z', 'é', '\ue000', '\uD83D\uDE00', '_', '0'];
  const docs = [];
  for (let d = 0; d < count; d++) {
    const n = 12 + next(30);
    const names = Array.from({ length: n }, () =>
      Array.from({ length: 1 + next(5) }, () => alphabet[next(alphabet.length)]).join(''),
    );
    const records = [];
    for (let r = 0; r < 1 + next(8); r++) {
      const these = names.slice();
      const kind = next(4);
      if (kind === 0) these[next(n)] += 'q';
      if (kind === 1) {
        const i = next(n - 1);
        const [c] = these[i + 1];
        if (c !== undefined && these[i + 1].length > c.length) {
          these[i] += c;
          these[i + 1] = these[i + 1].slice(c.length);
        }
      }
      // Distinct names only (JSON.parse would keep the last of a duplicate).
      if (new Set(these).size !== these.length) continue;
      const members = these.map((name, i) => {
        const value = i % 5 === 2 ? `{${these.map((m) => `"${m}":${r}`).join(',')}}` : `[${r},"${i}"]`;
        return `"${name}":${value}`;
      });
      records.push(`{${members.join(',')}}`);
    }
    docs.push(`[${records.join(',')}]`);
  }
  return docs;
}

module.exports = { stringDocs, stringErrors, shapeDocs };
