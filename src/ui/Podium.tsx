/** One team on the podium: its name, colour (#rrggbb) and podium place (1, 2 or 3). */
export interface PodiumEntry {
  name: string;
  color: string;
  position: number;
}

const HEX = /^#[0-9a-fA-F]{6}$/;
const PLACE_TEXT = ['1st', '2nd', '3rd'];

/**
 * The podium of a finished game (issue #15): up to three teams on steps, 2nd left, 1st in the
 * middle and highest, 3rd right, each step with the team's colour and name (as text) and its
 * place. Read in place order by assistive technology (an ordered list, 1st first); the visual
 * order comes from CSS. Entries beyond place 3 are left out.
 */
export function Podium({ entries, label = 'Podium' }: { entries: readonly PodiumEntry[]; label?: string }) {
  const top = [...entries].filter((e) => e.position >= 1 && e.position <= 3).sort((a, b) => a.position - b.position);
  if (top.length === 0) return null;
  return (
    <ol className="podium" aria-label={label} data-testid="podium">
      {top.map((e) => (
        <li key={`${e.position}-${e.name}`} className={`podium__step podium__step--${e.position}`} data-place={e.position}>
          <span className="podium__name">{e.name}</span>
          <span className="podium__block" style={{ borderTopColor: HEX.test(e.color) ? e.color : '#cccccc' }}>
            <span className="podium__swatch" style={{ background: HEX.test(e.color) ? e.color : '#cccccc' }} aria-hidden="true" />
            <span className="podium__place">{PLACE_TEXT[e.position - 1]}</span>
          </span>
        </li>
      ))}
    </ol>
  );
}
