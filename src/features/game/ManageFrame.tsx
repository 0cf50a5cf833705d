import type { ReactNode } from 'react';
import { ViewToolbar } from '../../ui/ViewToolbar';
import { GameBanner, type BannerRef } from './GameBanner';

/**
 * The frame of the game manage screens, Event Game and Game Tasks (docs/client.md §7): a section
 * named `name` (its class; `${name}-title` labels it), the toolbar with the back button and the
 * screen's title ('Managing: ...'), and the fading global banner; the screen's content below.
 */
export function ManageFrame({
  name,
  backLabel,
  onBack,
  title,
  banner,
  children,
}: {
  name: string;
  backLabel: string;
  onBack: () => void;
  title: string;
  banner: BannerRef;
  children: ReactNode;
}) {
  const titleId = `${name}-title`;
  return (
    <section className={name} aria-labelledby={titleId}>
      <ViewToolbar backLabel={backLabel} onBack={onBack} titleId={titleId} title={title} />
      <GameBanner banner={banner} />
      {children}
    </section>
  );
}
