// A small static server for target/web on 127.0.0.1: correct MIME types (application/wasm
// for streaming compilation), gzip when the browser accepts it, no directory escapes.
//
//   node serve.mjs [--port N] [--root DIR]     (port 0: any free port)
//
// Prints `http://127.0.0.1:PORT/` once listening.

import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import zlib from 'node:zlib';

const here = path.dirname(fileURLToPath(import.meta.url));

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.data': 'application/octet-stream',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/** Starts the server; resolves to `{ server, url }`. */
export function serve({ root = path.join(here, '..', 'target', 'web'), port = 0 } = {}) {
  root = path.resolve(root);
  const gzipCache = new Map();
  const server = http.createServer((req, res) => {
    let rel;
    try {
      rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      res.writeHead(400).end('bad request');
      return;
    }
    if (rel.endsWith('/')) rel += 'index.html';
    const file = path.join(root, path.normalize(rel));
    if (!file.startsWith(root + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${rel}`);
      return;
    }
    const type = MIME[path.extname(file)] ?? 'application/octet-stream';
    const headers = { 'content-type': type, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' };
    const gzip = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '') && !type.startsWith('image/png');
    let body;
    if (gzip) {
      const stat = fs.statSync(file);
      const key = `${file}:${stat.mtimeMs}:${stat.size}`;
      body = gzipCache.get(key);
      if (!body) {
        body = zlib.gzipSync(fs.readFileSync(file), { level: 6 });
        gzipCache.set(key, body);
      }
      headers['content-encoding'] = 'gzip';
      headers.vary = 'accept-encoding';
    } else {
      body = fs.readFileSync(file);
    }
    headers['content-length'] = body.length;
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      resolve({ server, url: `http://127.0.0.1:${server.address().port}/` });
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (name) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const root = arg('--root');
  if (root && !fs.existsSync(path.join(root, 'index.html'))) {
    console.error(`error: ${root}/index.html not found (build first: just web)`);
    process.exit(2);
  }
  const { url } = await serve({ root, port: Number(arg('--port') ?? process.env.PORT ?? 8787) });
  console.log(url);
}
