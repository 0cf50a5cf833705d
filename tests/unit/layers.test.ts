import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cruise, type ICruiseResult, type IFlattenedRuleSet, type IViolation } from 'dependency-cruiser';

/**
 * The layers of the code and the arrows allowed between them (docs/architecture.md "Layers"),
 * checked with dependency-cruiser over the imports TypeScript sees before compiling, so an
 * `import type` counts like any other:
 * - no import circle anywhere in server/, src/, contract/ or machines/;
 * - contract/ (shared rules and shapes) imports nothing of machines/, src/ or server/;
 *   machines/ (the client's charts) nothing of src/ or server/; src/ (the browser app) nothing of
 *   server/; server/ nothing of src/ or machines/;
 * - inside src/: base, ui, api and realtime (what features share) import no feature nor the roof
 *   (src/app); src/app reaches features only through its route table; no feature imports the roof;
 * - no server route file imports another route file (shared handler helpers live in server/http/).
 */

const ROOT = path.resolve(import.meta.dirname, '../..');

/** One forbidden arrow: imports from a file matching `from` to one matching `to` (root-relative path regexes). */
function forbid(name: string, from: { path: string; pathNot?: string }, to: { path: string; pathNot?: string }) {
  return { name, severity: 'error' as const, from, to };
}

const RULES: IFlattenedRuleSet = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: { path: '^(server|src|contract|machines)/' }, to: { circular: true } },
    forbid('contract-imports-no-upper-layer', { path: '^contract/' }, { path: '^(machines|src|server)/' }),
    forbid('machines-import-no-app-or-server', { path: '^machines/' }, { path: '^(src|server)/' }),
    forbid('src-imports-no-server', { path: '^src/' }, { path: '^server/' }),
    // The one exception: the spectator page's first drawing is the app's board (BoardView) rendered
    // by React's server renderer (docs/architecture.md §2).
    forbid('server-imports-no-client', { path: '^server/', pathNot: '^server/http/firstDrawing\\.ts$' }, { path: '^(src|machines)/' }),
    forbid('first-drawing-imports-only-the-board', { path: '^server/http/firstDrawing\\.ts$' }, { path: '^(src|machines)/', pathNot: '^src/features/board/BoardView\\.tsx$' }),
    forbid('shared-src-imports-no-feature-nor-roof', { path: '^src/(base|ui|api|realtime)/' }, { path: '^src/(features|app)/' }),
    forbid('roof-reaches-features-through-routes', { path: '^src/app/', pathNot: '^src/app/routes\\.tsx$' }, { path: '^src/features/' }),
    forbid('features-import-no-roof', { path: '^src/features/' }, { path: '^src/app/' }),
    forbid('route-files-import-no-route-file', { path: '^server/.+/routes\\.ts$' }, { path: '^server/.+/routes\\.ts$' }),
  ],
};

/** One line per violation: rule, then the arrow (or the circle, for no-circular). */
function described(v: IViolation): string {
  const arrow = v.cycle?.length ? [v.from, ...v.cycle.map((c) => c.name)].join(' → ') : `${v.from} → ${v.to}`;
  return `${v.rule.name}: ${arrow}`;
}

let result: ICruiseResult;

beforeAll(async () => {
  const cwd = process.cwd();
  // dependency-cruiser resolves and reports paths from the working directory.
  process.chdir(ROOT);
  try {
    const out = await cruise(['server', 'src', 'contract', 'machines'], {
      ruleSet: RULES,
      validate: true,
      tsPreCompilationDeps: true,
      // The source is ES modules only; not looking for require()/define() halves the cruise.
      moduleSystems: ['es6'],
      doNotFollow: { path: 'node_modules' },
      exclude: { path: '(^|/)node_modules/' },
      // Reused only while every cruised file's content is the same (checksums), so a change is always seen.
      cache: { folder: 'node_modules/.cache/dependency-cruiser-layers', strategy: 'content' },
    });
    result = out.output as ICruiseResult;
  } finally {
    process.chdir(cwd);
  }
}, 60_000);

describe('layers: no circle, no arrow pointing the wrong way', () => {
  it('reads the whole tree, type-only imports included', () => {
    const modules = new Map(result.modules.map((m) => [m.source, m]));
    expect(modules.size).toBeGreaterThan(300);
    // A type-only import: seen only because the cruise reads TypeScript before compilation.
    const typeOnly = modules.get('src/features/play/WinChances.tsx')?.dependencies.find((d) => d.resolved === 'src/features/play/gamePlayRef.ts');
    expect(typeOnly?.dependencyTypes).toContain('type-only');
    expect(modules.get('server/modules.ts')?.dependencies.some((d) => d.resolved === 'server/games/routes.ts')).toBe(true);
  });

  it('finds no import circle and no forbidden arrow', () => {
    expect(result.summary.violations.map(described)).toEqual([]);
  });
});
