/**
 * `npm run backup -- <folder>` (docs/server.md §14, README "Backups") against a real server
 * process on SQLite: a backup taken while two Leaders stream rolls over their sockets opens,
 * passes `PRAGMA integrity_check` and holds every roll acknowledged (its log entry broadcast back
 * to the Leader) before the backup began, with the uploads folder beside it, and a server started
 * on the restored copy answers the game's history; everything it writes is readable by its user
 * only (0600 files, 0700 folders), whatever the modes of the originals; and the refusals
 * (no folder, PostgreSQL, a folder that cannot be created) exit 1 with one clear line. SQLite only:
 * the command copies the SQLite file; with PostgreSQL it refuses (tested here) and pg_dump is the way.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { useServerSuite } from '../support/suite';
import { ApiClient } from '../support/api';
import { startServer } from '../support/server';
import { castOf, newGame, watchersOf, type Watcher } from '../support/liveSocket';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'csl-backup-'));
const uploadDir = path.join(work, 'uploads');

/**
 * Runs the backup with `args` and `env` added: as `npm run --silent backup -- ...args` when
 * `viaNpm`, else straight with node (what the npm script runs, without npm's start-up time).
 * Its exit code and output.
 */
function runBackup(args: string[], env: Record<string, string>, viaNpm = false): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const [command, ...prefix] = viaNpm ? ['npm', 'run', '--silent', 'backup', '--'] : [process.execPath, '--import', 'tsx', 'scripts/backup.ts'];
    const proc = spawn(command, [...prefix, ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: '', S3_BUCKET: '', INIT_CWD: ROOT, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout.on('data', (d) => (out += d));
    proc.stderr.on('data', (d) => (out += d));
    proc.on('error', reject);
    proc.on('exit', (code) => resolve({ code, out }));
  });
}

describe('backup of the SQLite database and the uploads (docs/server.md §14)', () => {
  // Rolls as fast as the server applies them: the per-socket and per-user caps are lifted.
  const suite = useServerSuite('sqlite', { UPLOAD_DIR: uploadDir, ROLLS_PER_SOCKET: '1000', ROLLS_PER_USER: '1000' });
  const sockets = watchersOf(() => suite.url);

  afterEach(() => {
    for (const w of sockets.open.splice(0)) w.close();
  });
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it('a backup taken during a roll stream opens, passes integrity_check and holds every roll acknowledged before it began', { timeout: 120_000 }, async () => {
    const cast = await castOf(suite.url, 'backup');
    const game = await newGame(cast);
    fs.mkdirSync(path.join(uploadDir, 'proofs'), { recursive: true });
    fs.writeFileSync(path.join(uploadDir, 'proofs', 'sample.webp'), 'proof bytes');

    // Each Leader rolls, waits for the log entry of its roll (the acknowledgement: the server
    // persists a roll before it broadcasts it), and rolls again until told to stop.
    const acked: number[] = [];
    let stop = false;
    const stream = async (leader: Watcher, teamId: number, ignId: number, teamName: string) => {
      while (!stop) {
        const since = leader.got.length;
        leader.socket.emit('roll_dice', { game_id: game.gameId, team_id: teamId, performer_ign_id: ignId });
        const r = await leader.next((x) => x.event === 'action_error' || (x.event === 'new_log_entry' && x.payload.log_entry.team_name === teamName), 10_000, since);
        if (r.event === 'action_error') throw new Error(`roll refused: ${r.payload.message}`);
        if (r.event === 'new_log_entry') acked.push(r.payload.log_entry.id);
      }
    };
    const red = await sockets.watcher('red leader', cast.owner);
    const blue = await sockets.watcher('blue leader', cast.leader2);
    await red.join(game.gameId);
    await blue.join(game.gameId);
    const streams = Promise.all([
      stream(red, game.team1, cast.ign.ownerA, 'Red Team'),
      stream(blue, game.team2, cast.ign.leader2, 'Blue Team'),
    ]);
    try {
      while (acked.length < 20) await red.next((x) => x.event === 'new_log_entry', 10_000);
      const ackedBefore = [...acked];
      const folder = path.join(work, 'during-rolls');
      const backup = runBackup([folder], { SQLITE_FILE: suite.env.SQLITE_FILE, UPLOAD_DIR: uploadDir }, true);
      const countAtStart = acked.length;
      const result = await backup;
      expect(result.code, result.out).toBe(0);
      // The stream really ran while the backup did: rolls were acknowledged meanwhile.
      while (acked.length <= countAtStart) await red.next((x) => x.event === 'new_log_entry', 10_000);
      expect(result.out).toMatch(/integrity check ok/);

      const copy = new Database(path.join(folder, path.basename(suite.env.SQLITE_FILE)), { readonly: true, fileMustExist: true });
      try {
        expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
        const ids = new Set((copy.prepare('SELECT id FROM game_log WHERE game_id = ?').all(game.gameId) as { id: number }[]).map((r) => r.id));
        expect(ackedBefore.filter((id) => !ids.has(id))).toEqual([]);
      } finally {
        copy.close();
      }
      expect(fs.readFileSync(path.join(folder, 'uploads', 'proofs', 'sample.webp'), 'utf8')).toBe('proof bytes');

      // Restored as the README says (the file copied into place), a server starts on it and
      // answers the game with every acknowledged roll in its history.
      const restoredFile = path.join(work, 'restored', 'app.db');
      fs.mkdirSync(path.dirname(restoredFile));
      fs.copyFileSync(path.join(folder, path.basename(suite.env.SQLITE_FILE)), restoredFile);
      const restored = await startServer({ SQLITE_FILE: restoredFile, UPLOAD_DIR: path.join(folder, 'uploads') });
      try {
        const history = await new ApiClient(restored.url).get(`/api/public/game/${game.gameId}/history`);
        expect(history.status).toBe(200);
        expect(history.body.moves.length).toBeGreaterThanOrEqual(ackedBefore.length);
      } finally {
        await restored.stop();
      }
    } finally {
      stop = true;
      await streams;
    }
  });

  it('writes the copies readable by its user only: folders it creates 0700, the database and the images 0600', async () => {
    // Originals open to others, as an older server or an operator's cp may have left them.
    fs.mkdirSync(path.join(uploadDir, 'proofs', 'open'), { recursive: true, mode: 0o755 });
    fs.chmodSync(path.join(uploadDir, 'proofs', 'open'), 0o755);
    fs.writeFileSync(path.join(uploadDir, 'proofs', 'open', 'shot.webp'), 'open bytes', { mode: 0o644 });
    fs.chmodSync(path.join(uploadDir, 'proofs', 'open', 'shot.webp'), 0o644);
    const folder = path.join(work, 'private', 'copy');
    const result = await runBackup([folder], { SQLITE_FILE: suite.env.SQLITE_FILE, UPLOAD_DIR: uploadDir });
    expect(result.code, result.out).toBe(0);
    const modeOf = (p: string) => fs.statSync(p).mode & 0o777;
    expect(modeOf(path.join(work, 'private'))).toBe(0o700);
    expect(modeOf(folder)).toBe(0o700);
    expect(modeOf(path.join(folder, path.basename(suite.env.SQLITE_FILE)))).toBe(0o600);
    expect(fs.readdirSync(folder).filter((f) => f.endsWith('-journal') || f.endsWith('.partial'))).toEqual([]);
    for (const d of ['uploads', 'uploads/proofs', 'uploads/proofs/open']) expect(modeOf(path.join(folder, d)), d).toBe(0o700);
    expect(modeOf(path.join(folder, 'uploads/proofs/open/shot.webp'))).toBe(0o600);
    expect(fs.readFileSync(path.join(folder, 'uploads/proofs/open/shot.webp'), 'utf8')).toBe('open bytes');
  });

  it('creates a missing folder; refuses with one clear line and exit 1: no folder given, PostgreSQL, a folder that cannot be created', async () => {
    const sqlite = { SQLITE_FILE: suite.env.SQLITE_FILE, UPLOAD_DIR: uploadDir };
    const nested = path.join(work, 'new', 'deeper');
    const made = await runBackup([nested], sqlite);
    expect(made.code, made.out).toBe(0);
    expect(fs.existsSync(path.join(nested, path.basename(suite.env.SQLITE_FILE)))).toBe(true);

    const usage = await runBackup([], sqlite);
    expect({ code: usage.code, out: usage.out.trim() }).toEqual({ code: 1, out: 'backup failed: usage: npm run backup -- <folder>' });

    const postgres = await runBackup([path.join(work, 'pg')], { ...sqlite, DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/none' });
    expect(postgres.code).toBe(1);
    expect(postgres.out).toMatch(/DATABASE_URL is set.*pg_dump/);
    expect(fs.existsSync(path.join(work, 'pg'))).toBe(false);

    const blocker = path.join(work, 'a-file');
    fs.writeFileSync(blocker, '');
    const blocked = await runBackup([path.join(blocker, 'sub')], sqlite);
    expect(blocked.code).toBe(1);
    expect(blocked.out).toMatch(/^backup failed: cannot create the backup folder /m);

    const s3 = await runBackup([path.join(work, 's3')], { ...sqlite, S3_BUCKET: 'proofs-bucket' });
    expect(s3.code, s3.out).toBe(0);
    expect(s3.out).toMatch(/proof images live in the S3 bucket proofs-bucket and are not copied/);
    expect(fs.existsSync(path.join(work, 's3', 'uploads'))).toBe(false);
  });
});
