import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { bannerMachine } from '../../../machines/banner.machine';
import { isBannerFading, selectBannerMessage } from '../../../machines/banner.selectors';
import { FadingNotice } from '../../ui/Notice';

/** A banner actor as the game screens hold it. */
export type BannerRef = ActorRefFrom<typeof bannerMachine>;

/**
 * The global message banner of the game screens (docs/client.md §7; docs/game-rules.md §6:
 * messages fade at 4 s and are removed at 5 s, timed by the banner chart). Fixed at the top of the
 * screen so it shows wherever the manager scrolled; the close button removes it at once.
 */
export function GameBanner({ banner }: { banner: BannerRef }) {
  const message = useSelector(banner, selectBannerMessage);
  const fading = useSelector(banner, isBannerFading);
  return <FadingNotice message={message} fading={fading} testId="game-banner" look="banner" onDismiss={() => banner.send({ type: 'message.dismiss' })} />;
}
