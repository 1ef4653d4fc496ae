#!/usr/bin/env node
// `npx equijson FILE...`: the canonical form of JSON files, as `equijson canon` does.
'use strict';

const fs = require('node:fs');
const { canonicalizeBytes, EquijsonError } = require('./index.cjs');

const HELP = `\
Usage: equijson [OPTIONS] [FILE]...

Write the RFC 8785 (JCS) canonical form of JSON documents (the equijson Rust core,
in WebAssembly: the same bytes as the native \`equijson canon\`).

Arguments:
  [FILE]...  Input files; none or \`-\` reads standard input

Options:
      --check                  Validate only: print nothing on success
      --lines                  JSON Lines: one document per input line, one canonical document
                               per output line
      --keep-going             With --lines: report invalid lines, leave them out of the output
                               and go on
      --reject-negative-zero   Reject -0 (and negative numbers that round to zero)
      --reject-inexact         Reject a number whose canonical form denotes a different decimal
                               value than the one written (9007199254740993, 1e-400); 0.1, 2.50
                               and 1e23 pass
      --reject-noncharacters   Reject Unicode noncharacters (U+FDD0..U+FDEF, U+xFFFE, U+xFFFF)
      --max-depth <N>          Deepest nesting of arrays/objects accepted [default: 10000]
  -h, --help                   Print help
  -V, --version                Print version

Output:
  One FILE: its canonical bytes, with no trailing newline (ready to hash or sign).
  Several FILEs: one canonical document per line, in argument order; a FILE that
  fails gives an empty line, so line N always belongs to FILE N.

  --lines: every input line is one document (JSON Lines / NDJSON); each gives one
  canonical document and a newline, read and written one line at a time. A line
  ends at \\n (a \\r before it is dropped); a blank line is an invalid document.
  By default the first invalid line ends the run: the lines before it are written,
  its own output line is left empty, its error is FILE:LINE:COL (LINE of that file,
  COL within the line), exit 1. With --keep-going every line is read: invalid lines
  are reported and left out of the output (which stays valid JSON Lines), exit 1 if
  any was invalid.

Exit codes:
  0  every document is valid (and was written)
  1  some document is invalid: FILE:LINE:COL: error: MESSAGE on stderr
  2  usage or I/O error (a FILE cannot be read, standard output cannot be written)
`;

const SUCCESS = 0;
const INVALID = 1;
const ENVIRONMENT = 2;
// One JSON document is at most this many bytes (the core's byte offsets are 32-bit).
const MAX_DOCUMENT = 0xffffffff;
// Output is handed to the operating system in chunks of about this size (--lines).
const FLUSH_AT = 256 * 1024;
const USAGE = 'Usage: equijson [OPTIONS] [FILE]...';

/** A usage error, worded as the native CLI's argument parser words it; exit 2. */
function usage(msg, tip) {
  const extra = tip === undefined ? '' : `\n  tip: ${tip}\n\n${USAGE}\n`;
  process.stderr.write(`error: ${msg}\n${extra}\nFor more information, try '--help'.\n`);
  process.exit(ENVIRONMENT);
}

// The operating system's own wording (strerror), as the native CLI prints it; Node's
// messages say the same thing differently ("ENOENT: no such file or directory, open 'x'").
const STRERROR = {
  EPERM: 'Operation not permitted',
  ENOENT: 'No such file or directory',
  EIO: 'Input/output error',
  ENXIO: 'No such device or address',
  EBADF: 'Bad file descriptor',
  EAGAIN: 'Resource temporarily unavailable',
  ENOMEM: 'Cannot allocate memory',
  EACCES: 'Permission denied',
  EBUSY: 'Device or resource busy',
  ENOTDIR: 'Not a directory',
  EISDIR: 'Is a directory',
  EINVAL: 'Invalid argument',
  ENFILE: 'Too many open files in system',
  EMFILE: 'Too many open files',
  ETXTBSY: 'Text file busy',
  EFBIG: 'File too large',
  ENOSPC: 'No space left on device',
  EPIPE: 'Broken pipe',
  ENAMETOOLONG: 'File name too long',
  ELOOP: 'Too many levels of symbolic links',
};

/** An I/O error as the native CLI prints it: `Description (os error N)`. */
function ioMessage(e) {
  const text = e && STRERROR[e.code];
  if (text !== undefined && typeof e.errno === 'number') return `${text} (os error ${Math.abs(e.errno)})`;
  return e && e.message !== undefined ? e.message : String(e);
}

/** `--max-depth N` as the native CLI reads it: a decimal that fits in 64 bits. */
function depthValue(value) {
  const bad = (why) => usage(`invalid value '${value}' for '--max-depth <N>': ${why}`);
  const digits = value.startsWith('+') ? value.slice(1) : value;
  if (digits === '') bad(value === '' ? 'cannot parse integer from empty string' : 'invalid digit found in string');
  if (!/^[0-9]+$/.test(digits)) bad('invalid digit found in string');
  if (BigInt(digits) > 0xffffffffffffffffn) bad('number too large to fit in target type');
  // No document of at most 2^32 - 1 bytes nests deeper than that: larger limits are the same.
  return Math.min(Number(digits), 0xffffffff);
}

function parseArgs(argv) {
  const opts = { check: false, lines: false, keepGoing: false, files: [], options: {} };
  let onlyFiles = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (onlyFiles || a === '-' || !a.startsWith('-')) {
      opts.files.push(a);
      continue;
    }
    let [name, value] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const flag = () => {
      if (value !== undefined) usage(`unexpected value '${value}' for '${name}' found; no more were expected`);
    };
    switch (name) {
      case '--':
        onlyFiles = true;
        break;
      case '-h':
      case '--help':
        process.stdout.write(HELP);
        process.exit(SUCCESS);
        break;
      case '-V':
      case '--version':
        process.stdout.write(`equijson ${require('../../package.json').version} (npm)\n`);
        process.exit(SUCCESS);
        break;
      case '--check':
        flag();
        opts.check = true;
        break;
      case '--lines':
        flag();
        opts.lines = true;
        break;
      case '--keep-going':
        flag();
        opts.keepGoing = true;
        break;
      case '--reject-negative-zero':
        flag();
        opts.options.rejectNegativeZero = true;
        break;
      case '--reject-inexact':
        flag();
        opts.options.rejectInexact = true;
        break;
      case '--reject-noncharacters':
        flag();
        opts.options.rejectNoncharacters = true;
        break;
      case '--max-depth': {
        if (value === undefined) {
          if (i + 1 >= argv.length) usage("a value is required for '--max-depth <N>' but none was supplied");
          value = argv[++i];
        }
        opts.options.maxDepth = depthValue(value);
        break;
      }
      default:
        usage(`unexpected argument '${a}' found`, `to pass '${a}' as a value, use '-- ${a}'`);
    }
  }
  if (opts.keepGoing && !opts.lines) {
    usage('the following required arguments were not provided:\n  --lines');
  }
  if (opts.files.length === 0) opts.files.push('-');
  if (opts.files.filter((f) => f === '-').length > 1) {
    process.stderr.write('equijson: error: `-` (standard input) can be given only once\n');
    process.exit(ENVIRONMENT);
  }
  return opts;
}

/** More than one document may be: refused as the native CLI refuses it (exit 1). */
class TooLarge {
  constructor(size) {
    this.size = size;
  }

  message(name) {
    const what = this.size === undefined ? 'standard input' : `${this.size} bytes`;
    const read = this.size === undefined ? '' : ', so it was not read';
    return `${name}: error: input too large: ${what} is more than the ${MAX_DOCUMENT}-byte limit of one JSON document (byte offsets are 32-bit)${read}; for JSON Lines, use --lines`;
  }
}

/** Standard input, whole; a TooLarge as soon as more than one document's worth arrives. */
async function readStdin() {
  const chunks = [];
  let total = 0;
  for await (const c of process.stdin) {
    total += c.length;
    if (total > MAX_DOCUMENT) return new TooLarge(undefined);
    chunks.push(c);
  }
  return Buffer.concat(chunks, total);
}

/** A file, whole; a TooLarge from its size, before anything is read. */
function readFile(file) {
  const fd = fs.openSync(file, 'r');
  try {
    const { size } = fs.fstatSync(fd);
    if (size > MAX_DOCUMENT) return new TooLarge(size);
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes `chunk` to standard output; resolves once the stream can take more. */
function emit(chunk) {
  if (process.stdout.write(chunk)) return Promise.resolve();
  return new Promise((resolve) => process.stdout.once('drain', resolve));
}

/** `FILE:LINE:COL: error: MESSAGE` with LINE the line of the file and COL the column in it. */
function locatedLine(name, number, e) {
  return e.column !== undefined
    ? `${name}:${number}:${e.column}: error: ${e.reason}`
    : `${name}:${number}: error: ${e.message}`;
}

/** The buffers as one of `length` bytes (the only one itself, without a copy). */
function joined(buffers, length) {
  return buffers.length === 1 ? buffers[0] : Buffer.concat(buffers, length);
}

/**
 * `--lines`: every line of every input is one document; one canonical document and a
 * newline per line. Memory: the current line and the output not yet written.
 */
async function runLines(opts, state) {
  let out = [];
  let outLen = 0;
  const push = (b) => {
    out.push(b);
    outLen += b.length;
  };
  const flush = async () => {
    if (outLen === 0) return;
    const chunk = joined(out, outLen);
    out = [];
    outLen = 0;
    await emit(chunk);
  };
  const NL = Buffer.from('\n');
  for (const file of opts.files) {
    const name = file === '-' ? '<stdin>' : file;
    let stream;
    if (file === '-') {
      stream = process.stdin;
    } else {
      try {
        stream = fs.createReadStream(null, { fd: fs.openSync(file, 'r'), highWaterMark: FLUSH_AT });
      } catch (e) {
        process.stderr.write(`${name}: error: cannot read: ${ioMessage(e)}\n`);
        state.status = Math.max(state.status, ENVIRONMENT);
        continue;
      }
    }
    let number = 0;
    let pieces = [];
    let pending = 0; // bytes of the current line so far
    let skipping = false; // the rest of a line past the size limit
    /** Handles one line (without its `\n`); false when the run must end. */
    const line = (bytes, complete) => {
      number++;
      let result = null;
      let error = null;
      // A `\r` before the `\n` is dropped (only there: the last line may lack both).
      if (complete && bytes.length > 0 && bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, bytes.length - 1);
      try {
        result = canonicalizeBytes(bytes, opts.options);
      } catch (e) {
        if (!(e instanceof EquijsonError)) throw e;
        error = e;
      }
      if (error === null) {
        if (!opts.check) {
          push(result);
          push(NL);
        }
        return true;
      }
      process.stderr.write(`${locatedLine(name, number, error)}\n`);
      return invalid();
    };
    const invalid = () => {
      state.status = Math.max(state.status, INVALID);
      if (opts.keepGoing) return true;
      if (!opts.check) push(NL);
      return false;
    };
    const tooLong = () => {
      number++;
      process.stderr.write(
        `${name}:${number}:1: error: line longer than the ${MAX_DOCUMENT}-byte limit of one JSON document\n`,
      );
      return invalid();
    };
    try {
      for await (const chunk of stream) {
        let start = 0;
        while (start < chunk.length) {
          const nl = chunk.indexOf(0x0a, start);
          const end = nl === -1 ? chunk.length : nl;
          if (skipping) {
            if (nl !== -1) skipping = false;
          } else if (pending + (end - start) > MAX_DOCUMENT) {
            pieces = [];
            pending = 0;
            skipping = nl === -1;
            if (!tooLong()) {
              await flush();
              return;
            }
          } else if (nl === -1) {
            pieces.push(chunk.subarray(start));
            pending += chunk.length - start;
          } else {
            pieces.push(chunk.subarray(start, nl));
            const bytes = joined(pieces, pending + nl - start);
            pieces = [];
            pending = 0;
            if (!line(bytes, true)) {
              await flush();
              return;
            }
          }
          start = end + 1;
        }
        if (outLen >= FLUSH_AT) await flush();
      }
    } catch (e) {
      if (e instanceof Error && e.code !== undefined) {
        process.stderr.write(`${name}:${number + 1}: error: cannot read: ${ioMessage(e)}\n`);
        state.status = Math.max(state.status, ENVIRONMENT);
        continue;
      }
      throw e;
    }
    // The last line needs no newline.
    if (pending > 0 && !line(joined(pieces, pending), false)) {
      await flush();
      return;
    }
  }
  await flush();
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const several = opts.files.length > 1;
  const state = { status: SUCCESS };
  // A reader that stops early (`| head`) ends the run quietly, with the status so far.
  process.stdout.on('error', (e) => {
    if (e.code === 'EPIPE') process.exit(state.status);
    process.stderr.write(`equijson: error: cannot write to standard output: ${ioMessage(e)}\n`);
    process.exit(ENVIRONMENT);
  });
  if (opts.lines) {
    await runLines(opts, state);
    process.exitCode = state.status;
    return;
  }
  const SECOND_VALUE = /^[{["\-0-9tfn]$/;
  for (const file of opts.files) {
    const name = file === '-' ? '<stdin>' : file;
    let out = new Uint8Array(0);
    let input = null;
    try {
      input = file === '-' ? await readStdin() : readFile(file);
    } catch (e) {
      process.stderr.write(`${name}: error: cannot read: ${ioMessage(e)}\n`);
      state.status = Math.max(state.status, ENVIRONMENT);
    }
    if (input instanceof TooLarge) {
      process.stderr.write(`${input.message(name)}\n`);
      state.status = Math.max(state.status, INVALID);
      input = null;
    }
    if (input !== null) {
      try {
        out = canonicalizeBytes(input, opts.options);
      } catch (e) {
        if (!(e instanceof EquijsonError)) throw e;
        const at = e.line !== undefined ? `${name}:${e.line}:${e.column}` : name;
        process.stderr.write(`${at}: error: ${e.reason}\n`);
        // As the native CLI: a second JSON value after the first suggests JSON Lines.
        if (
          e.kind === 'TrailingCharacters' &&
          e.offset !== undefined &&
          SECOND_VALUE.test(String.fromCharCode(input[e.offset]))
        ) {
          process.stderr.write(
            `${name}: hint: a second JSON value follows the first; for JSON Lines (one document per line) use \`equijson --lines\`\n`,
          );
        }
        state.status = Math.max(state.status, INVALID);
        out = new Uint8Array(0);
      }
    }
    if (opts.check) continue;
    process.stdout.write(out);
    if (several) process.stdout.write('\n');
  }
  process.exitCode = state.status;
}

main().catch((e) => {
  process.stderr.write(`equijson: internal error: ${e?.stack ? e.stack : e}\n`);
  process.exit(ENVIRONMENT);
});
