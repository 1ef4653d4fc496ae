// The package's API, shared by every entry (Node CommonJS, browsers, slim, workerd).
//
// scripts/assemble.mjs wraps this file: each entry calls `makeApi(loader)`, where
// `loader.glue` is the wasm-bindgen module of crates/equijson-npm (its `initSync`
// instantiates a compiled module), `loader.source()` returns what that entry has at hand
// synchronously (the embedded bytes, or the `WebAssembly.Module` a Worker imports), or
// undefined when it has nothing (the slim entry, whose module is a separate file),
// `loader.sourceAsync()` what `init()` loads when given nothing (the same, or the URL of
// dist/equijson.wasm), `loader.missing` says what to do when a call comes before the module
// is there, `loader.utf16(view)` makes a string of UTF-16LE bytes (a view of wasm memory),
// `loader.latin1(view)` one of ASCII bytes, and optional `loader.writeUtf16(heap, ptr, s)`
// copies the UTF-16 units of `s` into wasm memory at `ptr` (Node's `Buffer#write`; browsers
// use `encodeInto`). No import/export statements here, so the same text serves both module
// systems.

// biome-ignore lint/correctness/noUnusedVariables: called by the entries assemble.mjs wraps around this file
function makeApi(loader) {
  const REJECT_NEGATIVE_ZERO = 1;
  const REJECT_INEXACT = 2;
  const REJECT_NONCHARACTERS = 4;
  const DEFAULT_MAX_DEPTH = 10000;
  const MAX_U32 = 0xffffffff;
  // Strings up to this many units take the UTF-16 path where the loader has one (it needs
  // 5 bytes of wasm memory per unit: the units and the worst-case UTF-8).
  const UTF16_PATH_MAX = 1 << 26;
  const OPTION_NAMES = ['rejectNegativeZero', 'rejectInexact', 'rejectNoncharacters', 'maxDepth'];

  const encoder = new TextEncoder();
  // ignoreBOM: a leading U+FEFF would be kept (canonical text never starts with one anyway).
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

  /** An error from canonicalizing: what (`kind`, `reason`) and where. */
  class EquijsonError extends Error {
    /** @type {'EquijsonError'} */
    name;

    /**
     * @param {import('./index').ErrorKind} kind
     * @param {string} reason
     * @param {import('./index').ErrorLocation} [where]
     */
    constructor(kind, reason, where) {
      let prefix = '';
      if (where && where.line !== undefined) {
        prefix = `${where.line}:${where.column}: `;
      } else if (where && where.pointer !== undefined) {
        prefix = `at ${JSON.stringify(where.pointer)}: `;
      }
      super(prefix + reason);
      this.name = 'EquijsonError';
      /** The error's kind: the name of the Rust core's ErrorKind variant, e.g. "DuplicateKey". */
      this.kind = kind;
      /** The message without the position. */
      this.reason = reason;
      /** Byte offset into the UTF-8 text (text errors). */
      this.offset = where ? where.offset : undefined;
      /** 1-based line (text errors). */
      this.line = where ? where.line : undefined;
      /** 1-based column, counted in characters (text errors). */
      this.column = where ? where.column : undefined;
      /** UTF-16 index into the string given to canonicalize()/sha256Hex() (string input only). */
      this.index = where ? where.index : undefined;
      /** RFC 6901 JSON pointer to the offending value (canonicalizeValue errors). */
      this.pointer = where ? where.pointer : undefined;
    }
  }

  // ---- the wasm module and views of its memory ------------------------------------------

  let w = null;
  let memory = null;
  let u8 = null;
  let inputPtr = 0;
  let inputCap = 0;

  /** The module, instantiated on first use. */
  function wasm() {
    if (w === null) initSync();
    return w;
  }

  function adopt(m) {
    if (w === null) {
      memory = m.wasmMemory();
      w = m;
    }
  }

  /** Instantiates a compiled module with the glue's imports and takes it as the module. */
  function instantiate(module) {
    if (w !== null) return;
    guard(() => loader.glue.initSync({ module }));
    adopt(loader.glue);
  }

  const WASM_MODULE = typeof WebAssembly === 'object' ? WebAssembly.Module : undefined;

  function isModule(v) {
    return WASM_MODULE !== undefined && v instanceof WASM_MODULE;
  }

  function isBufferSource(v) {
    return isArrayBuffer(v) || ArrayBuffer.isView(v);
  }

  /**
   * The error to throw for one the engine raised while compiling or instantiating: an
   * EquijsonError that says what to change when the environment forbids WebAssembly from
   * bytes (a Content-Security-Policy without 'wasm-unsafe-eval', an edge runtime), else the
   * error itself.
   */
  function compileError(e) {
    const text = e !== null && typeof e === 'object' ? String(e.message) : String(e);
    let reason = null;
    if (typeof WebAssembly !== 'object') {
      reason = 'this JavaScript engine has no WebAssembly';
    } else if (/Content.Security.Policy|\bCSP\b|unsafe-eval/i.test(text)) {
      reason =
        "the page's Content-Security-Policy forbids compiling WebAssembly: add 'wasm-unsafe-eval' to its " +
        "script-src directive (for example `Content-Security-Policy: script-src 'self' 'wasm-unsafe-eval'`)";
    } else if (/disallowed by embedder|code generation/i.test(text)) {
      reason =
        'this runtime forbids compiling WebAssembly from bytes (Cloudflare Workers and other edge runtimes): ' +
        'import \'equijson\' with the "workerd" export condition (Wrangler sets it), which imports ' +
        'equijson.wasm as a module, or pass a WebAssembly.Module to init() or initSync()';
    }
    if (reason === null) return e;
    const err = new EquijsonError('WasmBlocked', `${reason} (the engine said: ${text})`);
    err.cause = e;
    return err;
  }

  function guard(f) {
    try {
      return f();
    } catch (e) {
      throw compileError(e);
    }
  }

  /** A compiled module from a WebAssembly.Module or the bytes of one, synchronously. */
  function compileSync(source, fn) {
    if (isModule(source)) return source;
    if (!isBufferSource(source)) {
      throw new TypeError(
        `${fn}: expected a WebAssembly.Module, an ArrayBuffer or a typed array, got ${typeName(source)}`,
      );
    }
    return guard(() => new WebAssembly.Module(source));
  }

  /** Reads a `file:` URL in Node (the slim entry there) without importing `fs` statically. */
  async function readFileUrl(url) {
    const p = typeof process === 'object' && process !== null ? process : undefined;
    const fs = p && typeof p.getBuiltinModule === 'function' ? p.getBuiltinModule('fs') : undefined;
    if (fs === undefined) {
      throw new EquijsonError(
        'NotInitialized',
        `cannot read ${url.href} here: pass the bytes of equijson.wasm to init() (e.g. init(fs.readFileSync(path)))`,
      );
    }
    return fs.promises.readFile(url);
  }

  /** A compiled module from anything init() takes, compiled asynchronously. */
  async function compile(source) {
    let s = await source;
    if (isModule(s)) return s;
    if (typeof s === 'string' || (typeof URL === 'function' && s instanceof URL)) {
      const url = new URL(String(s), typeof location === 'object' && location !== null ? location.href : undefined);
      if (url.protocol === 'file:') {
        s = await readFileUrl(url);
      } else {
        let res;
        try {
          res = await fetch(url);
        } catch (e) {
          const err = new EquijsonError(
            'NotInitialized',
            `could not fetch ${url.href} (${e?.message}): serve dist/equijson.wasm there, or pass its URL, its bytes or a WebAssembly.Module to init()`,
          );
          err.cause = e;
          throw err;
        }
        s = res;
      }
    }
    if (typeof Response === 'function' && s instanceof Response) {
      if (!s.ok) {
        throw new EquijsonError(
          'NotInitialized',
          `could not load ${s.url || 'the module'}: HTTP ${s.status}; serve dist/equijson.wasm there, or pass its URL, its bytes or a WebAssembly.Module to init()`,
        );
      }
      const streaming =
        typeof WebAssembly.compileStreaming === 'function' &&
        /^application\/wasm\b/.test(s.headers.get('content-type') || '');
      try {
        return streaming ? await WebAssembly.compileStreaming(s) : await WebAssembly.compile(await s.arrayBuffer());
      } catch (e) {
        throw compileError(e);
      }
    }
    if (!isBufferSource(s)) {
      throw new TypeError(
        `init: expected a WebAssembly.Module, bytes, a Response, a URL or a string, got ${typeName(s)}`,
      );
    }
    try {
      return await WebAssembly.compile(s);
    } catch (e) {
      throw compileError(e);
    }
  }

  /**
   * Instantiates the module now, synchronously: from `source` (a WebAssembly.Module or its
   * bytes) or, without one, from what this entry carries. Does nothing once instantiated.
   */
  function initSync(source) {
    if (w !== null) return;
    const s = source === undefined ? loader.source() : source;
    if (s === undefined) throw new EquijsonError('NotInitialized', loader.missing);
    instantiate(compileSync(s, 'initSync'));
  }

  /**
   * Compiles the module asynchronously (off the main thread in browsers) and instantiates
   * it, from `source` (a WebAssembly.Module, bytes, a Response or its promise, a URL) or,
   * without one, from what this entry carries or points to. Does nothing once instantiated.
   */
  async function init(source) {
    if (w !== null) return;
    const module = await compile(source === undefined ? loader.sourceAsync() : source);
    instantiate(module);
  }

  /** A byte view of wasm memory, renewed when the memory has grown (old views detach). */
  function heap() {
    if (u8 === null || u8.byteLength === 0 || u8.buffer !== memory.buffer) {
      u8 = new Uint8Array(memory.buffer);
    }
    return u8;
  }

  /** Makes the input buffer at least `len` bytes; sets inputPtr and inputCap. */
  function reserve(len) {
    inputPtr = w.inputBuffer(len);
    inputCap = w.inputCapacity();
  }

  // ---- options -----------------------------------------------------------------------

  let flags = 0;
  let maxDepth = DEFAULT_MAX_DEPTH;

  /** Reads `options` into `flags` and `maxDepth`. */
  function setOptions(options, fn) {
    flags = 0;
    maxDepth = DEFAULT_MAX_DEPTH;
    if (options === undefined || options === null) return;
    if (typeof options !== 'object') {
      throw new TypeError(`${fn}: options must be an object, got ${typeName(options)}`);
    }
    for (const key of Object.keys(options)) {
      if (!OPTION_NAMES.includes(key)) {
        throw new TypeError(`${fn}: unknown option ${JSON.stringify(key)} (known: ${OPTION_NAMES.join(', ')})`);
      }
    }
    if (options.rejectNegativeZero) flags |= REJECT_NEGATIVE_ZERO;
    if (options.rejectInexact) flags |= REJECT_INEXACT;
    if (options.rejectNoncharacters) flags |= REJECT_NONCHARACTERS;
    if (options.maxDepth !== undefined) {
      const d = options.maxDepth;
      if (!Number.isInteger(d) || d < 0 || d > MAX_U32) {
        throw new RangeError(`${fn}: maxDepth must be an integer from 0 to ${MAX_U32}, got ${String(d)}`);
      }
      maxDepth = d;
    }
  }

  // Brand checks that hold across realms (iframes, vm contexts, test runners), where
  // `instanceof` against this realm's constructors is false.
  const typedArrayTag = getter(Object.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag);
  const arrayBufferByteLength = getter(ArrayBuffer.prototype, 'byteLength');

  /**
   * The getter of a built-in accessor property (one the language defines).
   * @param {object} proto
   * @param {PropertyKey} key
   * @returns {(this: unknown) => unknown}
   */
  function getter(proto, key) {
    const get = Object.getOwnPropertyDescriptor(proto, key)?.get;
    return /** @type {(this: unknown) => unknown} */ (get);
  }

  /** Whether `v` throws nothing when `method` is called on it (a brand check). */
  function branded(method, v) {
    try {
      method.call(v);
      return true;
    } catch {
      return false;
    }
  }

  function isUint8Array(v) {
    return v instanceof Uint8Array || (ArrayBuffer.isView(v) && typedArrayTag.call(v) === 'Uint8Array');
  }

  function isArrayBuffer(v) {
    if (v instanceof ArrayBuffer) return true;
    // (A brand check throws for anything else, and throwing is slow: views are excluded first.)
    return typeof v === 'object' && v !== null && !ArrayBuffer.isView(v) && branded(arrayBufferByteLength, v);
  }

  function typeName(v) {
    if (v === null) return 'null';
    if (Array.isArray(v)) return 'an array';
    return typeof v;
  }

  // ---- strings into wasm memory -------------------------------------------------------

  const isWellFormed =
    typeof String.prototype.isWellFormed === 'function' ? (s) => s.isWellFormed() : (s) => !LONE_SURROGATE.test(s);
  const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:[^\uD800-\uDBFF]|^)[\uDC00-\uDFFF]/;

  /** Index of the first unpaired surrogate of `s`, or -1. */
  function firstLoneSurrogate(s) {
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff) {
        const d = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
        if (d >= 0xdc00 && d <= 0xdfff) i++;
        else return i;
      } else if (c >= 0xdc00 && c <= 0xdfff) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Encodes a well-formed string as UTF-8 into the input buffer; returns the byte length.
   * One `encodeInto` pass for ASCII; text with other characters takes a second pass into
   * a buffer grown to the worst case of what is left (3 bytes per UTF-16 unit).
   */
  function encode(text) {
    const len = text.length;
    reserve(len);
    const { read, written } = encoder.encodeInto(text, heap().subarray(inputPtr, inputPtr + inputCap));
    if (read === len) return written;
    // Grown in place or moved with its content: the first pass's bytes stay.
    reserve(written + 3 * (len - read));
    const rest = encoder.encodeInto(text.slice(read), heap().subarray(inputPtr + written, inputPtr + inputCap));
    return written + rest.written;
  }

  /** The input as UTF-8 in the input buffer; a string with an unpaired surrogate throws. */
  function put(input, fn) {
    if (typeof input === 'string') {
      if (loader.writeUtf16 !== undefined && input.length <= UTF16_PATH_MAX) {
        // Node: the string's UTF-16 units copied into wasm memory (a plain copy), made
        // UTF-8 there; an unpaired surrogate is found in the same pass.
        const len = input.length;
        const p = w.input16Buffer(len);
        loader.writeUtf16(heap(), p, input);
        const n = w.fromUtf16(len);
        if (n === MAX_U32) throw loneSurrogateError(input);
        return n;
      }
      // encodeInto writes U+FFFD for an unpaired surrogate: only when the module finds
      // one in the bytes is the string itself checked (isWellFormed is a full scan).
      const n = encode(input);
      if (w.hasReplacement(n) && !isWellFormed(input)) throw loneSurrogateError(input);
      return n;
    }
    let bytes = input;
    if (!isUint8Array(bytes) && isArrayBuffer(bytes)) bytes = new Uint8Array(bytes);
    if (!isUint8Array(bytes)) {
      throw new TypeError(`${fn}: expected a string or a Uint8Array, got ${typeName(input)}`);
    }
    reserve(bytes.length);
    heap().set(bytes, inputPtr);
    return bytes.length;
  }

  function outputView() {
    const p = w.outputPtr();
    return heap().subarray(p, p + w.outputLen());
  }

  // ---- errors ----------------------------------------------------------------------------

  /** The error the core reported; for string input with the UTF-16 index of its offset. */
  function coreError(text) {
    const kind = w.errorKind();
    const reason = w.errorMessage();
    const pos = w.errorPosition();
    if (pos.length !== 3) return new EquijsonError(kind, reason);
    const where = { offset: pos[0], line: pos[1], column: pos[2] };
    if (typeof text === 'string') where.index = utf16Index(text, pos[0]);
    return new EquijsonError(kind, reason, where);
  }

  /** The UTF-16 index in `s` where its UTF-8 encoding reaches byte `offset`. */
  function utf16Index(s, offset) {
    let bytes = 0;
    let i = 0;
    while (i < s.length && bytes < offset) {
      const c = s.charCodeAt(i);
      if (c < 0x80) bytes += 1;
      else if (c < 0x800) bytes += 2;
      else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
        bytes += 4;
        i++;
      } else bytes += 3;
      i++;
    }
    return i;
  }

  /**
   * A string with an unpaired surrogate cannot become UTF-8. Report that, unless the text
   * before it already has an error: the core reports the first error in document order.
   */
  function loneSurrogateError(text) {
    const i = firstLoneSurrogate(text);
    const prefix = text.slice(0, i);
    const n = encode(prefix);
    if (!wasm().validate(n, flags, maxDepth)) {
      const e = coreError(prefix);
      // An error strictly inside the prefix is genuine; one at its end is only the cut.
      if (e.offset !== undefined && e.offset < n) return e;
    }
    const lineStart = prefix.lastIndexOf('\n') + 1;
    let column = 1;
    for (const _ of prefix.slice(lineStart)) column++;
    let line = 1;
    for (let j = prefix.indexOf('\n'); j !== -1; j = prefix.indexOf('\n', j + 1)) line++;
    const unit = text.charCodeAt(i).toString(16).toUpperCase();
    return new EquijsonError('LoneSurrogate', `unpaired surrogate U+${unit}`, {
      offset: n,
      line,
      column,
      index: i,
    });
  }

  // ---- the API -----------------------------------------------------------------------------

  /**
   * The RFC 8785 canonical form of JSON text.
   * @param {string} text
   * @param {import('./index').CanonicalizeOptions} [options]
   * @returns {string}
   */
  function canonicalize(text, options) {
    if (typeof text !== 'string') {
      throw new TypeError(`canonicalize: expected a string, got ${typeName(text)}`);
    }
    setOptions(options, 'canonicalize');
    wasm();
    const n = put(text, 'canonicalize');
    const got = w.canonicalize16(n, flags, maxDepth);
    if (got === 0) throw coreError(text);
    // ASCII as Latin-1, anything else as UTF-16: engines copy those into a string far
    // faster than they decode UTF-8.
    if (got === 1) return loader.latin1(outputView());
    const p = w.output16Ptr();
    return loader.utf16(heap().subarray(p, p + 2 * w.output16Len()));
  }

  /**
   * The RFC 8785 canonical form of JSON given as UTF-8 bytes, as new bytes.
   * @param {Uint8Array | ArrayBuffer} bytes
   * @param {import('./index').CanonicalizeOptions} [options]
   * @returns {Uint8Array}
   */
  function canonicalizeBytes(bytes, options) {
    if (!isUint8Array(bytes) && !isArrayBuffer(bytes)) {
      throw new TypeError(`canonicalizeBytes: expected a Uint8Array, got ${typeName(bytes)}`);
    }
    setOptions(options, 'canonicalizeBytes');
    wasm();
    const n = put(bytes, 'canonicalizeBytes');
    if (!w.canonicalize(n, flags, maxDepth)) throw coreError(null);
    return outputView().slice();
  }

  /**
   * Lowercase hex SHA-256 of the canonical form of JSON text (a string or UTF-8 bytes).
   * @param {string | Uint8Array | ArrayBuffer} input
   * @param {import('./index').CanonicalizeOptions} [options]
   * @returns {string}
   */
  function sha256Hex(input, options) {
    setOptions(options, 'sha256Hex');
    wasm();
    const n = put(input, 'sha256Hex');
    if (!w.sha256(n, flags, maxDepth)) throw coreError(input);
    return decoder.decode(outputView());
  }

  /** Frees the buffers kept between calls (sized for the largest document so far). */
  function releaseMemory() {
    if (w === null) return;
    w.release();
    inputPtr = 0;
    inputCap = 0;
  }

  // ---- JavaScript values ----------------------------------------------------------------------

  let NONCHARACTER = null;
  function noncharacterRegExp() {
    if (NONCHARACTER === null) {
      let cls = '\\uFDD0-\\uFDEF\\uFFFE\\uFFFF';
      for (let plane = 1; plane <= 16; plane++) {
        const base = plane.toString(16).toUpperCase();
        cls += `\\u{${base}FFFE}\\u{${base}FFFF}`;
      }
      NONCHARACTER = new RegExp(`[${cls}]`, 'u');
    }
    return NONCHARACTER;
  }

  const objectToString = Object.prototype.toString;
  // Methods that throw unless called on an object with the named internal slot.
  const BRANDS = {
    __proto__: null,
    Number: Number.prototype.valueOf,
    String: String.prototype.valueOf,
    Boolean: Boolean.prototype.valueOf,
    BigInt: BigInt.prototype.valueOf,
    Map: getter(Map.prototype, 'size'),
    Set: getter(Set.prototype, 'size'),
  };

  function escapePointer(token) {
    return token.replace(/~/g, '~0').replace(/\//g, '~1');
  }

  /**
   * The canonical form of a JavaScript value, as JSON.stringify would see it (toJSON,
   * boxed primitives, undefined members omitted, undefined array elements as null), with
   * members sorted by UTF-16 code units and numbers in ECMAScript form. Throws on what
   * has no faithful JSON form: NaN, Infinity, BigInt, functions, symbols, Map, Set,
   * cycles, unpaired surrogates, undefined at the top. No recursion: an explicit stack.
   */
  function canonicalizeValue(value, options) {
    setOptions(options, 'canonicalizeValue');
    const rejectNegZero = (flags & REJECT_NEGATIVE_ZERO) !== 0;
    const nonchars = (flags & REJECT_NONCHARACTERS) !== 0 ? noncharacterRegExp() : null;
    const limit = maxDepth;
    // Open containers; `cur` is the key (a string) of the child being handled, so the
    // `cur`s of all frames are the JSON pointer of the value at hand.
    const frames = [];
    const open = new Set();

    function fail(kind, reason) {
      let pointer = '';
      for (const f of frames) pointer += `/${escapePointer(f.cur)}`;
      return new EquijsonError(kind, reason, { pointer });
    }

    function quote(s) {
      if (!isWellFormed(s)) {
        const i = firstLoneSurrogate(s);
        const unit = s.charCodeAt(i).toString(16).toUpperCase();
        throw fail('LoneSurrogate', `unpaired surrogate U+${unit} at UTF-16 index ${i} of a string`);
      }
      if (nonchars !== null) {
        const m = nonchars.exec(s);
        if (m !== null) {
          const cp = m[0].codePointAt(0).toString(16).toUpperCase().padStart(4, '0');
          throw fail('Noncharacter', `noncharacter U+${cp} is not allowed`);
        }
      }
      return JSON.stringify(s);
    }

    /**
     * What `v`, found under `key`, serializes as: a string of JSON, undefined (it has no
     * JSON form), or a container (array or object) to open.
     */
    function prepare(key, v) {
      if ((typeof v === 'object' && v !== null) || typeof v === 'bigint') {
        const toJSON = v.toJSON;
        if (typeof toJSON === 'function') v = toJSON.call(v, key);
      }
      if (typeof v === 'object' && v !== null) {
        const proto = Object.getPrototypeOf(v);
        // Plain objects and arrays (all of JSON.parse's output) are containers.
        if (proto === Object.prototype || proto === Array.prototype) return v;
        const kind = special(v);
        if (kind === 'Number') v = Number(v);
        else if (kind === 'String') v = String(v);
        else if (kind === 'Boolean') v = Boolean.prototype.valueOf.call(v);
        else if (kind === 'BigInt') v = BigInt.prototype.valueOf.call(v);
        else if (kind === 'Map' || kind === 'Set') {
          throw fail('UnsupportedType', `a ${kind} has no JSON form (JSON.stringify would write {})`);
        } else {
          return v;
        }
      }
      switch (typeof v) {
        case 'string':
          return quote(v);
        case 'number':
          if (!Number.isFinite(v)) throw fail('NonFiniteNumber', `${v} cannot be represented in JSON`);
          if (rejectNegZero && Object.is(v, -0)) throw fail('NegativeZero', 'negative zero is not allowed');
          return JSON.stringify(v);
        case 'boolean':
          return v ? 'true' : 'false';
        case 'undefined':
          return undefined;
        case 'bigint':
          throw fail('UnsupportedType', `a BigInt (${v}n) has no JSON form; convert it to a number or a string first`);
        case 'function':
          throw fail('UnsupportedType', 'a function has no JSON form');
        case 'symbol':
          throw fail('UnsupportedType', 'a symbol has no JSON form');
        default:
          return 'null'; // null
      }
    }

    /**
     * Which of the objects JSON.stringify (or this function) treats apart `v` is: a boxed
     * Number, String, Boolean or BigInt (unwrapped as JSON.stringify does: ToNumber,
     * ToString, the boolean and the BigInt inside), a Map or a Set; else undefined. By
     * internal slot, so objects from another realm are recognized too.
     */
    function special(v) {
      if (v instanceof Number) return 'Number';
      if (v instanceof String) return 'String';
      if (v instanceof Boolean) return 'Boolean';
      if (v instanceof BigInt) return 'BigInt';
      if (v instanceof Map) return 'Map';
      if (v instanceof Set) return 'Set';
      // Another realm's: the tag names the candidate, a brand check confirms it.
      const tag = objectToString.call(v).slice(8, -1);
      const check = BRANDS[tag];
      return check !== undefined && branded(check, v) ? tag : undefined;
    }

    /** Pushes the frame of container `c`; returns its opening bracket. */
    function enter(c) {
      if (open.has(c)) throw fail('Cycle', 'circular reference: the value contains itself');
      if (frames.length >= limit) {
        throw fail('NestingTooDeep', `nesting too deep: more than ${limit} levels of arrays/objects`);
      }
      open.add(c);
      if (Array.isArray(c)) {
        frames.push({ c, keys: null, i: 0, n: c.length, cur: '', first: true });
        return '[';
      }
      // Default sort: by UTF-16 code units, the order RFC 8785 requires.
      const keys = Object.keys(c).sort();
      frames.push({ c, keys, i: 0, n: keys.length, cur: '', first: true });
      return '{';
    }

    const top = prepare('', value);
    if (top === undefined) throw fail('UnsupportedType', 'undefined has no JSON form');
    if (typeof top === 'string') return top;
    let out = enter(top);
    outer: while (frames.length > 0) {
      const f = frames[frames.length - 1];
      while (f.i < f.n) {
        const i = f.i++;
        if (f.keys === null) {
          const key = String(i);
          f.cur = key;
          const child = prepare(key, f.c[i]);
          if (i > 0) out += ',';
          if (child === undefined) {
            out += 'null';
          } else if (typeof child === 'string') {
            out += child;
          } else {
            out += enter(child);
            continue outer;
          }
        } else {
          const key = f.keys[i];
          f.cur = key;
          const child = prepare(key, f.c[key]);
          if (child === undefined) continue;
          const name = quote(key);
          out += f.first ? `${name}:` : `,${name}:`;
          f.first = false;
          if (typeof child === 'string') {
            out += child;
          } else {
            out += enter(child);
            continue outer;
          }
        }
      }
      out += f.keys === null ? ']' : '}';
      open.delete(f.c);
      frames.pop();
    }
    return out;
  }

  return {
    canonicalize,
    canonicalizeBytes,
    canonicalizeValue,
    sha256Hex,
    releaseMemory,
    init,
    initSync,
    EquijsonError,
  };
}
