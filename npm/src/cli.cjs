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
      --reject-negative-zero   Reject -0 (and negative numbers that round to zero)
      --reject-inexact         Reject numbers a double cannot carry exactly
      --reject-noncharacters   Reject Unicode noncharacters (U+FDD0..U+FDEF, U+xFFFE, U+xFFFF)
      --max-depth <N>          Deepest nesting of arrays/objects accepted [default: 10000]
  -h, --help                   Print help
  -V, --version                Print version

Output:
  One FILE: its canonical bytes, with no trailing newline (ready to hash or sign).
  Several FILEs: one canonical document per line, in argument order; a FILE that
  fails gives an empty line, so line N always belongs to FILE N.

Exit codes:
  0  every document is valid (and was written)
  1  some document is invalid: FILE:LINE:COL: error: MESSAGE on stderr
  2  usage or I/O error (a FILE cannot be read, standard output cannot be written)
`;

const SUCCESS = 0;
const INVALID = 1;
const ENVIRONMENT = 2;
// The `--lines` hint names the native command: this one reads one document per file.
const NATIVE_ONLY = ' of the native equijson binary (this npm command reads one document per file)';

function usage(msg) {
  process.stderr.write(`equijson: error: ${msg}\n\nFor more information, try '--help'.\n`);
  process.exit(ENVIRONMENT);
}

function parseArgs(argv) {
  const opts = { check: false, files: [], options: {} };
  let onlyFiles = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (onlyFiles || a === '-' || !a.startsWith('-')) {
      opts.files.push(a);
      continue;
    }
    let [name, value] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const flag = () => {
      if (value !== undefined) usage(`unexpected value '${value}' for '${name}'`);
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
          if (i + 1 >= argv.length) usage("a value is required for '--max-depth <N>'");
          value = argv[++i];
        }
        if (!/^[0-9]+$/.test(value) || Number(value) > 0xffffffff) {
          usage(`invalid value '${value}' for '--max-depth <N>': expected a number from 0 to 4294967295`);
        }
        opts.options.maxDepth = Number(value);
        break;
      }
      default:
        usage(`unexpected argument '${a}'`);
    }
  }
  if (opts.files.length === 0) opts.files.push('-');
  if (opts.files.filter((f) => f === '-').length > 1) {
    process.stderr.write('equijson: error: `-` (standard input) can be given only once\n');
    process.exit(ENVIRONMENT);
  }
  return opts;
}

async function readStdin() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  return Buffer.concat(chunks);
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const several = opts.files.length > 1;
  let status = SUCCESS;
  // A reader that stops early (`| head`) ends the run quietly, with the status so far.
  process.stdout.on('error', (e) => {
    if (e.code === 'EPIPE') process.exit(status);
    process.stderr.write(`equijson: error: cannot write to standard output: ${e.message}\n`);
    process.exit(ENVIRONMENT);
  });
  const SECOND_VALUE = /^[{["\-0-9tfn]$/;
  for (const file of opts.files) {
    const name = file === '-' ? '<stdin>' : file;
    let out = new Uint8Array(0);
    let input = null;
    try {
      input = file === '-' ? await readStdin() : fs.readFileSync(file);
    } catch (e) {
      process.stderr.write(`${name}: error: cannot read: ${e.message}\n`);
      status = Math.max(status, ENVIRONMENT);
    }
    if (input !== null) {
      try {
        out = canonicalizeBytes(input, opts.options);
      } catch (e) {
        if (!(e instanceof EquijsonError)) throw e;
        const at = e.line !== undefined ? `${name}:${e.line}:${e.column}` : name;
        process.stderr.write(`${at}: error: ${e.reason}\n`);
        // As the native CLI: a second JSON value after the first suggests JSON Lines.
        if (e.kind === 'TrailingCharacters' && e.offset !== undefined && SECOND_VALUE.test(String.fromCharCode(input[e.offset]))) {
          process.stderr.write(`${name}: hint: a second JSON value follows the first; for JSON Lines (one document per line) use \`equijson canon --lines\`${NATIVE_ONLY}\n`);
        }
        status = Math.max(status, INVALID);
        out = new Uint8Array(0);
      }
    }
    if (opts.check) continue;
    process.stdout.write(out);
    if (several) process.stdout.write('\n');
  }
  process.exitCode = status;
}

main().catch((e) => {
  process.stderr.write(`equijson: internal error: ${e && e.stack ? e.stack : e}\n`);
  process.exit(ENVIRONMENT);
});
