/**
 * Backs up the embedded SQLite database and the proof images folder, while the server runs
 * (docs/server.md §14, README "Backups").
 *
 * Run: `npm run backup -- <folder>` (a relative folder is taken from where npm was started). It
 * reads the server's own configuration (server/config.ts: SQLITE_FILE, UPLOAD_DIR, S3_BUCKET,
 * DATABASE_URL), so it finds the same files `npm start` uses, and writes into `<folder>`:
 * - `<name of SQLITE_FILE>` (e.g. app.db): a consistent copy taken with SQLite's online backup
 *   (better-sqlite3's `db.backup()`), all pages in one step inside one read transaction, so the copy
 *   is the database as it stood at one instant; the server keeps writing meanwhile (WAL mode lets
 *   it). The copy is checked with `PRAGMA integrity_check` and turned into a single self-contained
 *   file (journal_mode DELETE): restoring it is copying it back.
 * - `uploads/`: a copy of UPLOAD_DIR (proof screenshots and thumbnails); with S3_BUCKET set the
 *   images live in the bucket and are not copied (back the bucket up with the store's own tools).
 * Everything it writes is readable by the user running it only (0600 files, 0700 folders; a
 * folder that already existed keeps its mode): the copies hold sessions, tokens and proof images.
 * The folder is created when missing. Exit 0 when done; exit 1 with one line saying why for no
 * folder given, a folder that cannot be created or written, no database file, DATABASE_URL set
 * (PostgreSQL: use pg_dump, shown in the message), or a copy that fails its integrity check.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { loadConfig } from '../server/config';

/** A refusal with the one line to print (no stack trace: these are the operator's mistakes, not bugs). */
class BackupError extends Error {}

/** What a progress line looks like: `backup: <text>`, on stdout. */
const say = (text: string) => console.log(`backup: ${text}`);

/** Bytes as MiB with one decimal, for the progress lines. */
const mib = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;

/** The target folder: created when missing; a BackupError when it cannot be created or written. */
function prepareFolder(folder: string): void {
  try {
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new BackupError(`cannot create the backup folder ${folder}: ${(err as Error).message}`);
  }
  if (!fs.statSync(folder).isDirectory()) throw new BackupError(`${folder} is not a folder`);
  try {
    fs.accessSync(folder, fs.constants.W_OK);
    const probe = path.join(folder, `.backup-probe-${process.pid}`);
    fs.writeFileSync(probe, '');
    fs.rmSync(probe);
  } catch (err) {
    throw new BackupError(`cannot write in the backup folder ${folder}: ${(err as Error).message}`);
  }
}

/**
 * Copies the SQLite file `source` to `target` with the online backup API. The source is opened
 * read-only (the server's writes go on; the WAL file beside it is read, never checkpointed
 * here). The first step copies nothing (better-sqlite3 starts at 0 pages), so the progress callback
 * answers "all remaining pages": one step, one read transaction, one instant of the database. A
 * write by the server between steps would make SQLite restart the copy, which pages copied in
 * small steps under a stream of rolls might never outrun. Returns the pages copied.
 */
async function copyDatabase(source: string, target: string): Promise<{ pages: number; bytes: number }> {
  const partial = `${target}.partial`;
  fs.rmSync(partial, { force: true });
  // Created empty and private before SQLite writes a page into it (SQLite keeps an existing file's mode).
  fs.writeFileSync(partial, '', { mode: 0o600 });
  const db = new Database(source, { readonly: true, fileMustExist: true });
  let pages = 0;
  try {
    db.pragma('busy_timeout = 5000');
    const pageSize = Number(db.pragma('page_size', { simple: true }));
    const done = await db.backup(partial, {
      progress: ({ totalPages }) => {
        pages = totalPages;
        return 0x7fffffff;
      },
    });
    pages = done.totalPages;
    const copy = new Database(partial);
    try {
      const check = copy.pragma('integrity_check', { simple: true });
      if (check !== 'ok') throw new BackupError(`the copy failed its integrity check: ${String(check)}`);
      // One self-contained file: the server switches it back to WAL when it opens it.
      copy.pragma('journal_mode = DELETE');
    } finally {
      copy.close();
    }
    fs.renameSync(partial, target);
    return { pages, bytes: pages * pageSize };
  } catch (err) {
    fs.rmSync(partial, { force: true });
    throw err;
  } finally {
    db.close();
  }
}

/**
 * Copies the uploads folder `source` into `target` (replacing an older copy); the number of files
 * copied. cpSync gives each copy its source's mode, so the copy is then made private: folders
 * 0700, files 0600.
 */
function copyUploads(source: string, target: string): number {
  fs.rmSync(target, { recursive: true, force: true });
  fs.cpSync(source, target, { recursive: true, preserveTimestamps: true });
  fs.chmodSync(target, 0o700);
  let files = 0;
  for (const entry of fs.readdirSync(target, { recursive: true, withFileTypes: true })) {
    const at = path.join(entry.parentPath, entry.name);
    if (entry.isDirectory()) fs.chmodSync(at, 0o700);
    else if (entry.isFile()) {
      fs.chmodSync(at, 0o600);
      files += 1;
    }
  }
  return files;
}

/** Runs the backup described at the top of this file; throws BackupError for the operator's mistakes. */
async function main(args: string[]): Promise<void> {
  const [asked] = args;
  if (!asked) throw new BackupError('usage: npm run backup -- <folder>');
  // Whatever else this process creates (the journal of the copy's last step) is private too.
  process.umask(0o077);
  const config = loadConfig();
  if (config.databaseUrl) {
    throw new BackupError(
      'DATABASE_URL is set: the database is PostgreSQL, which this command does not copy. Use pg_dump, e.g. ' +
        '`pg_dump --format=custom --file=clan-snakes.dump "$DATABASE_URL"` (restore with ' +
        '`pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" clan-snakes.dump`); README "Backups".',
    );
  }
  // npm runs scripts from the package folder; INIT_CWD is where the person typed the command.
  const folder = path.resolve(process.env.INIT_CWD ?? process.cwd(), asked);
  const sqliteFile = path.resolve(config.sqliteFile);
  if (!fs.existsSync(sqliteFile)) throw new BackupError(`no database file at ${sqliteFile} (SQLITE_FILE): nothing to back up`);
  prepareFolder(folder);

  const started = Date.now();
  const dbTarget = path.join(folder, path.basename(sqliteFile));
  say(`copying the database ${sqliteFile} to ${dbTarget} (online backup, the server may keep running)`);
  const { pages, bytes } = await copyDatabase(sqliteFile, dbTarget);
  say(`database copied: ${pages} pages, ${mib(bytes)}, integrity check ok`);

  if (config.s3) {
    say(`proof images live in the S3 bucket ${config.s3.bucket} and are not copied: back the bucket up with the store's own tools`);
  } else {
    const uploads = path.resolve(config.uploadDir);
    const uploadsTarget = path.join(folder, 'uploads');
    if (!fs.existsSync(uploads)) {
      say(`no uploads folder at ${uploads} yet (UPLOAD_DIR): no proof images to copy`);
    } else {
      say(`copying the uploads ${uploads} to ${uploadsTarget}`);
      say(`uploads copied: ${copyUploads(uploads, uploadsTarget)} files`);
    }
  }
  say(`done in ${((Date.now() - started) / 1000).toFixed(1)} s: ${folder}`);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  console.error(`backup failed: ${err instanceof BackupError ? err.message : err instanceof Error ? err.stack : String(err)}`);
  process.exit(1);
});
