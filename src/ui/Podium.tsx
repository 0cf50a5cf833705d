import type { CSSProperties } from 'react';
import type { Standing } from '../../contract/game/standings';

const HEX = /^#[0-9a-fA-F]{6}$/;
/** Display fallback of a team colour (docs/game-rules.md §12). */
const FALLBACK_COLOR = '#cccccc';
const PLACE_NAMES = ['1st', '2nd', '3rd'] as const;

/** Black or white, whichever reads better on `hex` (relative luminance, WCAG). */
function inkOn(hex: string): string {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return luminance > 0.179 ? '#1d1405' : '#ffffff';
}

/**
 * The final standings podium: the first three of `standings`
 * (contract standingsOf: winner first) on steps of decreasing height, 2nd left, 1st centre, 3rd
 * right on wide screens; each step in the team's colour with its place, name and square. The list
 * is in place order for screen readers (the visual order comes from CSS). Team names are rendered
 * as text. Nothing is rendered for empty standings. `title` heads the section (default
 * 'Final Standings').
 */
export function Podium({ standings, title = 'Final Standings' }: { standings: readonly Standing[]; title?: string }) {
  const top = standings.slice(0, 3);
  if (top.length === 0) return null;
  return (
    <section className="podium" aria-labelledby="podium-title" data-testid="podium">
      <h2 id="podium-title" className="podium__title">{title}</h2>
      <ol className="podium__steps">
        {top.map((s, i) => {
          const color = HEX.test(s.team_color) ? s.team_color : FALLBACK_COLOR;
          const style = { '--team': color, '--team-ink': inkOn(color) } as CSSProperties;
          return (
            <li key={s.team_id} className={`podium__step podium__step--${i + 1}`} style={style} data-testid="podium-step" data-place={s.place} data-team={s.team_name}>
              <span className="podium__name">
                {s.winner && <span className="podium__crown" aria-hidden="true" />}
                {s.team_name}
              </span>
              <span className="podium__block">
                <span className="podium__place">{PLACE_NAMES[i]}</span>
                <span className="podium__square">Square {s.position}</span>
              </span>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
