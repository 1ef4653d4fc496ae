// An RFC 8785 canonicalizer written over the JavaScript engine's own JSON: JSON.parse,
// Number#toString (through JSON.stringify), JSON.stringify's string escaping and the
// default sort, which compares UTF-16 code units. It shares no code with equijson: it is
// the independent oracle the page compares the WebAssembly core against.

/** A value JCS cannot write (the engine parsed it, but there is no canonical form). */
export class JsPolicyError extends Error {
  constructor(policy, message) {
    super(message);
    this.policy = policy;
  }
}

/**
 * Canonical text of `text` as the JS engine sees it, and what policy-relevant things it
 * noticed: `{ canonical, loneSurrogate, overflow }`. Throws SyntaxError for invalid JSON.
 */
export function jsCanonicalize(text) {
  const notes = { loneSurrogate: false, overflow: false };
  const value = JSON.parse(text);
  let canonical = null;
  try {
    canonical = write(value, notes);
  } catch (e) {
    if (!(e instanceof JsPolicyError)) throw e;
  }
  return { canonical, ...notes };
}

function str(s, notes) {
  if (!isWellFormed(s)) notes.loneSurrogate = true;
  return JSON.stringify(s);
}

function isWellFormed(s) {
  if (typeof s.isWellFormed === 'function') return s.isWellFormed();
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);
}

function write(v, notes) {
  // Iterative would survive deeper documents; generated ones are shallow, and a
  // RangeError on a pathological playground input is reported, not hidden.
  if (v === null) return 'null';
  switch (typeof v) {
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(v)) {
        notes.overflow = true;
        throw new JsPolicyError('number-beyond-double', 'a number overflows a double (Infinity)');
      }
      return JSON.stringify(v); // ECMAScript Number#toString; -0 -> "0"
    case 'string':
      return str(v, notes);
    default:
      if (Array.isArray(v)) return `[${v.map((x) => write(x, notes)).join(',')}]`;
      return (
        '{' +
        Object.keys(v)
          .sort() // UTF-16 code unit order
          .map((k) => `${str(k, notes)}:${write(v[k], notes)}`)
          .join(',') +
        '}'
      );
  }
}

/**
 * The policy classes where the JS engine and equijson decide differently by design (page
 * classes, each explaining one core error kind: `DuplicateKey`, `LoneSurrogate`,
 * `NumberOutOfRange`).
 */
export const POLICY_CLASSES = {
  'duplicate-key': 'duplicate member names: JSON.parse keeps the last, equijson rejects (RFC 8785 / I-JSON)',
  'lone-surrogate': 'unpaired surrogates: JS strings may hold them, equijson rejects (I-JSON)',
  'number-beyond-double': 'numbers beyond a double: JSON.parse makes Infinity, which has no JCS form; equijson rejects',
};

/**
 * Compares equijson's result for `text` (`core`: `{ok}` or `{error:{kind,...}}`, from
 * canonicalResult) with the JS engine's. Returns `{ verdict, js, policy? }` where verdict
 * is `agree`, `policy` (a named policy class) or `differ` (unexplained).
 */
export function compareWithJs(text, core) {
  let js;
  try {
    js = jsCanonicalize(text);
  } catch (e) {
    js = { error: String(e?.message ? e.message : e) };
  }
  const coreOk = core.ok !== undefined;
  if (js.error !== undefined) {
    // Both reject: agreement on invalid JSON. JS rejects what equijson accepts: a bug.
    return { verdict: coreOk ? 'differ' : 'agree', js };
  }
  if (coreOk) {
    if (js.canonical === core.ok) return { verdict: 'agree', js };
    return { verdict: 'differ', js };
  }
  // The engine accepted what equijson rejected: explained only by a named policy class,
  // confirmed on the JS side where the engine can see it.
  // `kind` is the core's ErrorKind name (`DuplicateKey`), the npm package's vocabulary.
  const kind = core.error.kind;
  if (kind === 'LoneSurrogate' && js.loneSurrogate) return { verdict: 'policy', policy: 'lone-surrogate', js };
  if (kind === 'NumberOutOfRange' && js.overflow) {
    return { verdict: 'policy', policy: 'number-beyond-double', js };
  }
  if (kind === 'DuplicateKey') return { verdict: 'policy', policy: 'duplicate-key', js };
  return { verdict: 'differ', js };
}

/** Inputs that show each policy class (run by the page next to the generated cases). */
export const POLICY_PROBES = [
  { text: '{"a":1,"a":2}', expect: 'duplicate-key' },
  { text: '{"k":"x","\\u006b":"y"}', expect: 'duplicate-key' },
  { text: '["\\ud800"]', expect: 'lone-surrogate' },
  { text: '{"\\udc00x":1}', expect: 'lone-surrogate' },
  { text: '[1e400]', expect: 'number-beyond-double' },
  { text: '-1.8e308', expect: 'number-beyond-double' },
];
