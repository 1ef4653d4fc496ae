// Type tests (tsc, in package.test.mjs): init() and initSync() with each source they take,
// through the main entry and equijson/slim.
import { canonicalize, EquijsonError, init, initSync } from 'equijson';
import * as slim from 'equijson/slim';

declare const module: WebAssembly.Module;
declare const bytes: Uint8Array;

export async function ahead(): Promise<string> {
  await init();
  await init(module);
  await init(bytes.buffer);
  await init(fetch('/equijson.wasm'));
  await init(new URL('https://example.org/equijson.wasm'));
  await init('/equijson.wasm');
  initSync();
  initSync(module);
  initSync(bytes);
  await slim.init(new URL('equijson/equijson.wasm', import.meta.url));
  slim.initSync(bytes);
  try {
    return canonicalize('{}') + slim.canonicalize('[]');
  } catch (e) {
    if (e instanceof EquijsonError && (e.kind === 'WasmBlocked' || e.kind === 'NotInitialized')) return e.message;
    throw e;
  }
}

// (TypeScript declares WebAssembly.Module as an empty interface, so the types cannot refuse
// other objects; the run-time check does: TypeError.)
// @ts-expect-error: null is no source (leave the argument out for the entry's own module)
initSync(null);
// @ts-expect-error: null is no source
void init(null);
