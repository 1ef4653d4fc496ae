// Type tests (tsc, in package.test.mjs): the byte-taking functions accept what they accept
// at run time (Uint8Array, Buffer, ArrayBuffer), and nothing else.
import { canonicalizeBytes, sha256Hex } from 'equijson';

const buffer: ArrayBuffer = new TextEncoder().encode('{"b":1,"a":2}').buffer as ArrayBuffer;
const a: string = sha256Hex(buffer);
const b: string = sha256Hex(new Uint8Array(buffer));
const c: string = sha256Hex('{"a":1}', { rejectInexact: true });
const d: Uint8Array = canonicalizeBytes(buffer);
const e: Uint8Array = canonicalizeBytes(new Uint8Array(buffer));
console.log(a, b, c, d, e);

// @ts-expect-error: a number is neither text nor bytes
sha256Hex(42);
// @ts-expect-error: canonicalizeBytes takes bytes, not text
canonicalizeBytes('{}');
