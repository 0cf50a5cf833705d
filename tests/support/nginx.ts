import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './e2e';

/** Debian's nginx binary (NGINX_PATH to use another); the tests that need it skip without it. */
export const NGINX = process.env.NGINX_PATH || '/usr/sbin/nginx';
/** The shipped site (deploy/README.md), which the nginx tests run as shipped but for its ports. */
const SITE = path.join(REPO_ROOT, 'deploy/nginx/clan-snakes.conf');

/**
 * The shipped site for this run: its listen lines become one `listen <listen>;` (`'127.0.0.1:3000'`,
 * or a bare port for every IPv4 address), its upstream servers one a port of `upstreams` (their
 * parameters kept); everything else as shipped. Fails when the file no longer has the lines this
 * relies on.
 */
export function siteFor(listen: string, upstreams: number[]): string {
  const site = fs.readFileSync(SITE, 'utf8');
  const servers = [...site.matchAll(/^(\s*)server 127\.0\.0\.1:\d+( [^;]*)?;$/gm)];
  const listens = [...site.matchAll(/^\s*listen [^;]+;$/gm)];
  if (servers.length === 0 || listens.length === 0) throw new Error(`${SITE}: no upstream server or listen line to fill in`);
  const [indent, params] = [servers[0][1], servers[0][2] ?? ''];
  let out = site.replace(/^\s*server 127\.0\.0\.1:\d+( [^;]*)?;\n/gm, '');
  out = out.replace(/(hash \$remote_addr consistent;\n(?:\s*#[^\n]*\n)*)/, `$1${upstreams.map((p) => `${indent}server 127.0.0.1:${p}${params};\n`).join('')}`);
  let first = true;
  out = out.replace(/^(\s*)listen [^;]+;$/gm, (_m, sp: string) => {
    const line = first ? `${sp}listen ${listen};` : '';
    first = false;
    return line;
  });
  return out;
}

/** A running nginx of startNginx, and its logs (the access log: `status method uri upstream_addr upstream_status` a line). */
export interface Nginx {
  proc: ChildProcess;
  accessLog: string;
  errorLog: string;
}

/**
 * nginx in the foreground serving `site` (a siteFor text) with its own prefix, pid, logs and temp
 * folders under `dir`; resolves once http://127.0.0.1:`port`/healthz answers 2xx. Rejects when
 * nginx exits first (with its output and error log) or does not answer within 15 s. `dir` is made
 * readable to all: nginx's workers drop root for nobody, who must reach the temp folders.
 */
export async function startNginx(dir: string, port: number, site: string): Promise<Nginx> {
  fs.chmodSync(dir, 0o755);
  fs.writeFileSync(path.join(dir, 'site.conf'), site);
  const accessLog = path.join(dir, 'access.log');
  const errorLog = path.join(dir, 'error.log');
  fs.writeFileSync(path.join(dir, 'nginx.conf'), `
daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${errorLog} warn;
events { worker_connections 1024; }
http {
  log_format upstreams '$status $request_method $uri $upstream_addr $upstream_status';
  access_log ${accessLog} upstreams;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/site.conf;
}
`);
  const proc = spawn(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', errorLog], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`nginx exited ${proc.exitCode}: ${out}${fs.existsSync(errorLog) ? fs.readFileSync(errorLog, 'utf8') : ''}`);
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false);
    if (ok) return { proc, accessLog, errorLog };
    if (Date.now() > deadline) throw new Error(`nginx did not answer in 15 s: ${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
