// The npm API's JavaScript against its declarations: `makeApi` (src/api.js, a script the
// package entries wrap) must return what src/index.d.ts declares. Checked by
// `tsc -p npm/tsconfig.json` in `just js-check`; never shipped.

/** @type {typeof import('../src/index')} */
const _declared = makeApi(/** @type {any} */ (undefined));
