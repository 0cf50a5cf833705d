import type { CreateTableBuilder, Kysely } from 'kysely';

/** The two SQL dialects the one migration set targets (docs/architecture.md §5). */
export type Dialect = 'sqlite' | 'postgres';

/** A migration that may branch on the dialect where the DDL differs. */
export interface DialectMigration {
  up(db: Kysely<any>, dialect: Dialect): Promise<void>;
  down(db: Kysely<any>, dialect: Dialect): Promise<void>;
}

/** Adds an auto-increment integer primary key `id` in the dialect's own way. */
export function withId<T extends string>(table: CreateTableBuilder<T, never>, dialect: Dialect): CreateTableBuilder<T, 'id'> {
  return dialect === 'postgres'
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}
