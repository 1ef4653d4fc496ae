// Types of the npm package `equijson` (RFC 8785 canonical JSON).

/** Policies; the defaults are strict RFC 8785, as in the Rust core and the `equijson` CLI. */
export interface CanonicalizeOptions {
  /** Reject `-0` (and negative numbers that round to zero) instead of writing `0`. */
  rejectNegativeZero?: boolean;
  /**
   * Reject a number whose canonical form denotes a different decimal value than the one
   * written (`9007199254740993`, `1e-400`); `0.1`, `2.50` and `1e23` pass. Text input only.
   */
  rejectInexact?: boolean;
  /** Reject Unicode noncharacters (U+FDD0..U+FDEF, U+xFFFE, U+xFFFF), as I-JSON asks. */
  rejectNoncharacters?: boolean;
  /** Deepest nesting of arrays/objects accepted; default 10000. */
  maxDepth?: number;
}

/**
 * The kinds of error: the Rust core's `ErrorKind` names (`ErrorKind::name`, also what the
 * reviewers' page reports), plus two of JavaScript values (`UnsupportedType`, `Cycle`),
 * plus two of the environment: `WasmBlocked` (a Content-Security-Policy without
 * `'wasm-unsafe-eval'`, or a runtime that compiles no WebAssembly from bytes, refused the
 * module; the message says what to change) and `NotInitialized` (`equijson/slim` called
 * before `await init()`, or its module could not be loaded).
 */
export type ErrorKind =
  | 'UnexpectedEof'
  | 'UnexpectedCharacter'
  | 'TrailingCharacters'
  | 'TrailingComma'
  | 'InvalidUtf8'
  | 'ByteOrderMark'
  | 'ControlCharacterInString'
  | 'InvalidEscape'
  | 'LoneSurrogate'
  | 'Noncharacter'
  | 'InvalidNumber'
  | 'InvalidLiteral'
  | 'NumberOutOfRange'
  | 'NegativeZero'
  | 'InexactNumber'
  | 'NonFiniteNumber'
  | 'DuplicateKey'
  | 'NestingTooDeep'
  | 'InputTooLarge'
  | 'KeyMustBeString'
  | 'Custom'
  | 'UnsupportedType'
  | 'Cycle'
  | 'WasmBlocked'
  | 'NotInitialized';

/** Where an error is: a position in text, or a JSON pointer into a JavaScript value. */
export interface ErrorLocation {
  offset?: number;
  line?: number;
  column?: number;
  index?: number;
  pointer?: string;
}

/**
 * Why input was rejected, and where. `message` is `LINE:COL: reason` for text and
 * `at "POINTER": reason` for JavaScript values.
 */
export declare class EquijsonError extends Error {
  /** The package throws these; the constructor is exported for `instanceof` checks. */
  constructor(kind: ErrorKind, reason: string, where?: ErrorLocation);
  readonly name: 'EquijsonError';
  readonly kind: ErrorKind;
  /** The message without the position. */
  readonly reason: string;
  /** Byte offset into the UTF-8 text (text errors). */
  readonly offset?: number;
  /** 1-based line (text errors). */
  readonly line?: number;
  /** 1-based column, counted in characters (text errors). */
  readonly column?: number;
  /** UTF-16 index into the string that was passed (string input only). */
  readonly index?: number;
  /** RFC 6901 JSON pointer of the offending value (`canonicalizeValue` only). */
  readonly pointer?: string;
}

/**
 * The RFC 8785 canonical form of JSON text.
 * @throws {EquijsonError} on invalid JSON, duplicate member names, unpaired surrogates
 *   (escaped, or in the string itself), numbers that overflow a double, or a policy.
 * @throws {TypeError} when `text` is not a string.
 */
export declare function canonicalize(text: string, options?: CanonicalizeOptions): string;

/**
 * The RFC 8785 canonical form of JSON given as UTF-8 bytes, as new bytes.
 * @throws {EquijsonError} as `canonicalize`, and on invalid UTF-8 or a byte order mark.
 */
export declare function canonicalizeBytes(bytes: Uint8Array | ArrayBuffer, options?: CanonicalizeOptions): Uint8Array;

/**
 * The RFC 8785 canonical form of a JavaScript value as `JSON.stringify` sees it:
 * `toJSON()` is called (so a `Date` becomes its ISO string), boxed primitives are
 * unwrapped, own enumerable string keys are serialized, a member whose value is
 * `undefined` is omitted and an `undefined` array element becomes `null`.
 * @throws {EquijsonError} with a JSON pointer on `NaN`/`Infinity` (`NonFiniteNumber`),
 *   BigInt, functions, symbols, Map and Set (`UnsupportedType`), `undefined` at the top
 *   (`UnsupportedType`), cycles (`Cycle`), unpaired surrogates in strings or keys, and
 *   nesting beyond `maxDepth`.
 */
export declare function canonicalizeValue(value: unknown, options?: CanonicalizeOptions): string;

/**
 * Lowercase hex SHA-256 of the canonical form of JSON text (a string or UTF-8 bytes).
 * @throws {EquijsonError} as `canonicalize`.
 */
export declare function sha256Hex(text: string | Uint8Array | ArrayBuffer, options?: CanonicalizeOptions): string;

/** Frees the buffers kept between calls (they keep the size of the largest document). */
export declare function releaseMemory(): void;

// The globals' types where the project's `lib` has them (DOM, WebWorker, @types/node),
// `object` elsewhere, so these declarations compile under any `lib`.
type WasmModule = typeof globalThis extends { WebAssembly: { Module: new (...args: never[]) => infer M } } ? M : object;
type FetchResponse = typeof globalThis extends { Response: new (...args: never[]) => infer R } ? R : object;
type AnyUrl = typeof globalThis extends { URL: new (...args: never[]) => infer U } ? U : object;

/** What `initSync()` instantiates: a compiled `WebAssembly.Module` or the bytes of `equijson.wasm`. */
export type SyncSource = WasmModule | ArrayBuffer | ArrayBufferView;

/**
 * What `init()` loads: anything `initSync()` takes, a `Response` (or its promise, e.g.
 * `fetch(url)`), or the URL of `equijson.wasm` (a `file:` URL is read from disk in Node).
 */
export type InitSource = SyncSource | FetchResponse | PromiseLike<FetchResponse> | AnyUrl | string;

/**
 * Compiles the WebAssembly module asynchronously (off the main thread in browsers) and
 * instantiates it, so that the first call does not compile on the main thread. Without
 * `source`, the entry's own module (embedded, imported in Workers, or fetched from next to
 * `equijson/slim`). Resolves at once when the module is already there; the other
 * functions instantiate it synchronously on first use when this was not called (except in
 * `equijson/slim`, where it is required).
 * @throws {EquijsonError} `WasmBlocked` when a Content-Security-Policy or the runtime
 *   forbids compiling WebAssembly (the message says what to change); `NotInitialized`
 *   when the module could not be fetched.
 */
export declare function init(source?: InitSource): Promise<void>;

/**
 * Instantiates the module now, synchronously, from `source` or the entry's own module.
 * @throws {EquijsonError} `WasmBlocked` as `init()`; `NotInitialized` in `equijson/slim`
 *   without a `source`.
 */
export declare function initSync(source?: SyncSource): void;
