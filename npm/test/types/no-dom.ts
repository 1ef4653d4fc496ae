// Type tests (tsc, in package.test.mjs): the declarations compile where `lib` has no DOM
// and no @types/node (no WebAssembly, Response or URL globals declared).
import { init, initSync, sha256Hex } from 'equijson';

initSync(new ArrayBuffer(8));
void init('/equijson.wasm');
const h: string = sha256Hex(new ArrayBuffer(8));

export { h };
