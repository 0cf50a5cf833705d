import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { commentSpans, coveredFiles, outsideReferences, rewriteComment } from '../../scripts/cite-docs';

/**
 * The repository stands alone (docs/architecture.md §7): a comment says why the code is so and
 * cites docs/ for the rules, so no comment in machines/ src/ server/ contract/ tests/ bench/ (nor
 * the README's prose) names an issue number, a path outside the repository or a document that
 * does not ship with it. `node --import tsx scripts/cite-docs.ts` rewrites most such comments.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('comments cite only what the repository holds', () => {
  it('names no issue number, outside path or outside document in any comment', () => {
    const found: string[] = [];
    for (const file of coveredFiles(ROOT)) {
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      // Only a file whose text names one of them can have a comment that does: parse only those.
      if (outsideReferences(text).length === 0) continue;
      for (const span of commentSpans(file, text)) {
        const comment = text.slice(span.start, span.end);
        if (outsideReferences(comment).length === 0) continue;
        const first = text.slice(0, span.start).split('\n').length;
        comment.split('\n').forEach((line, i) => {
          for (const what of outsideReferences(line)) found.push(`${file}:${first + i} ${what}: ${line.trim().slice(0, 100)}`);
        });
        // A reference broken over two lines shows on neither alone: name the comment.
        if (!comment.split('\n').some((line) => outsideReferences(line).length)) found.push(`${file}:${first} ${outsideReferences(comment).join(', ')}`);
      }
    }
    expect(found, 'run `node --import tsx scripts/cite-docs.ts`, then reword what it lists').toEqual([]);
  }, 60_000);

  it('reads no file outside the repository', () => {
    // A path that climbs out of the repository, or one of the machine it was written on.
    const outside = [/['"`](?:\.\.\/)+shared\//, /\/work\/(?:wt|main|prompts)\//];
    const found = coveredFiles(ROOT)
      .filter((file) => file !== 'tests/unit/comments-stand-alone.test.ts')
      .filter((file) => outside.some((re) => re.test(fs.readFileSync(path.join(ROOT, file), 'utf8'))));
    expect(found).toEqual([]);
  });

  it('finds comments and leaves strings and code alone', () => {
    const text = [
      "const a = 'issue 12 stays in a string';",
      '// a line comment',
      'const b = `template // not a comment`; /* a block */',
      'const c = <div>{/* in JSX */}text // not a comment</div>;',
    ].join('\n');
    const comments = commentSpans('x.tsx', text).map((s) => text.slice(s.start, s.end));
    expect(comments).toEqual(['// a line comment', '/* a block */', '/* in JSX */']);
  });

  it('rewrites outside references into docs/ citations and drops issue numbers', () => {
    const samples: [string, string][] = [
      ['/** Limits (product-spec section 9). */', '/** Limits (docs/client.md §12). */'],
      ['// Rolls (server-contract section 4; issue #14): one at a time', '// Rolls (docs/server.md §5): one at a time'],
      ['/* Podium (issue 12) */', '/* Podium */'],
      ['// Issue #14 (first load): the router starts early', '// The router starts early'],
      ['/** Roles (product-spec sections 4 (Clan roles), 5 (Clan members) and 6). */', '/** Roles (docs/client.md §5; docs/game-rules.md §11). */'],
      ['/** Selectors (house-style "Components"). */', '/** Selectors (docs/architecture.md §3). */'],
      ["/** the spec's texts */", '/** the documented texts */'],
    ];
    for (const [before, after] of samples) {
      expect(rewriteComment(before)).toBe(after);
      expect(rewriteComment(after)).toBe(after);
    }
  });
});
