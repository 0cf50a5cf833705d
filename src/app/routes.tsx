import { lazy, Suspense, type ComponentType } from 'react';
import { matchRoutes, Navigate, type RouteObject } from 'react-router-dom';
import { PublicLayout } from '../features/layout/PublicLayout';
import { LoginPage } from '../features/auth/LoginPage';
import { AuthCallbackPage } from '../features/auth/AuthCallbackPage';
import { LoadingPage } from '../features/auth/LoadingPage';
import { LoggedInLayout } from '../features/layout/LoggedInLayout';
import { Spinner } from '../ui/Spinner';

/** What a lazily loaded page shows while its code arrives on the first load (inside its layout, navbar included). */
function PageLoading() {
  return <Spinner text="Loading..." />;
}

/** A page's module load, answering the page's component as `default` (React.lazy's shape). */
type PageLoad = () => Promise<{ default: ComponentType }>;

/** What a lazily loaded page's route carries in its `handle`: its load, for preloadPage. */
interface PageHandle {
  load: PageLoad;
}

/**
 * The small screens of signing in (landing, callback, session check and the logged-in layout) come
 * with the app; the dashboard (its clan desks and events, about 15 KB that a spectator's page never
 * shows), onboarding (a first visit's form, with its chart), the lobbies,
 * the spectate list, the board and live game, clan management and the profile load on first
 * visit (and the avatar menu once signed in, Navbar),
 * so the landing page and a spectator's game page each download only what they show. Until a page's
 * code arrives it shows PageLoading in its layout (a Suspense boundary at the route's place: on a
 * later navigation within the same layout, which the router makes a transition, the page before
 * stays until the new one's code is there). React.lazy rather than the data router's route `lazy`, since the app renders its
 * routes with useRoutes: react-router's data router is about 14 KiB more on every page's wire.
 */
const lazyPage = (load: PageLoad): Pick<RouteObject, 'element' | 'handle'> => {
  const Page = lazy(load);
  return {
    element: (
      <Suspense fallback={<PageLoading />}>
        <Page />
      </Suspense>
    ),
    handle: { load } satisfies PageHandle,
  };
};

/** The lazily loaded screens. */
const onboardingPage = () => import('../features/onboarding/OnboardingPage').then((m) => ({ default: m.OnboardingPage }));
const dashboardPage = () => import('../features/dashboard/DashboardPage').then((m) => ({ default: m.DashboardPage }));
const spectatorViewPage = () => import('../features/spectate/SpectatorViewPage').then((m) => ({ default: m.SpectatorViewPage }));
const profilePage = () => import('../features/profile/ProfilePage').then((m) => ({ default: m.ProfilePage }));
const gamesLobbyPage = () => import('../features/lobby/GamesLobbyPage').then((m) => ({ default: m.GamesLobbyPage }));
const gamePlayPage = () => import('../features/play/GamePlayPage').then((m) => ({ default: m.GamePlayPage }));
const clanManagePage = () => import('../features/clan/ClanManagePage').then((m) => ({ default: m.ClanManagePage }));
const draftRoomPage = () => import('../features/draft/DraftRoomPage').then((m) => ({ default: m.DraftRoomPage }));

/** The spectate list, shown in both layouts. */
const spectateList = lazyPage(() => import('../features/spectate/SpectateListPage').then((m) => ({ default: m.SpectateListPage })));

/**
 * The route table of docs/client.md §1: the logged-in layout (loader while the session is
 * checked, redirect to / when signed out) and the public layout; any other path redirects to /.
 */
export const routes: RouteObject[] = [
  {
    element: <PublicLayout />,
    children: [
      { path: '/', element: <LoginPage /> },
      { path: '/auth-callback', element: <AuthCallbackPage /> },
      { path: '/loading', element: <LoadingPage /> },
      { path: '/onboarding', ...lazyPage(onboardingPage) },
      { path: '/games/spectate', ...spectateList },
      { path: '/games/spectate/:gameId', ...lazyPage(spectatorViewPage) },
      // verifyPath (src/base/paths.ts) builds links to it.
      { path: '/games/:gameId/verify', ...lazyPage(async () => ({ default: (await import('../features/verify/VerifyDicePage')).VerifyDicePage })) },
      { path: '/games/:gameId/results', ...lazyPage(async () => ({ default: (await import('../features/results/ResultsPage')).ResultsPage })) },
      // An invite link (invitePath, contract/invite.ts): public, so a signed-out visitor sees the clan first.
      { path: '/invite/:code', ...lazyPage(async () => ({ default: (await import('../features/invites/InvitePage')).InvitePage })) },
    ],
  },
  {
    element: <LoggedInLayout />,
    children: [
      { path: '/dashboard', ...lazyPage(dashboardPage) },
      { path: '/profile', ...lazyPage(profilePage) },
      {
        path: '/games',
        ...lazyPage(gamesLobbyPage),
        children: [{ path: 'spectate-auth', ...spectateList }],
      },
      { path: '/games/clan/:clanId/events/:eventId/game/:gameId', ...lazyPage(gamePlayPage) },
      { path: '/clans/manage/:clanId/*', ...lazyPage(clanManagePage) },
      // draftPath (src/base/paths.ts) builds links to it.
      { path: '/clans/:clanId/events/:eventId/draft', ...lazyPage(draftRoomPage) },
      // The page `/snl link` answers in Discord (discordLinkPath, contract/discordLink.ts; docs/server.md §19).
      { path: '/discord/link/:code', ...lazyPage(async () => ({ default: (await import('../features/discordLink/DiscordLinkPage')).DiscordLinkPage })) },
    ],
  },
  { path: '*', element: <Navigate to="/" replace /> },
];

/**
 * Starts loading the code of the lazily loaded pages that `pathname` shows, before the first
 * render reaches them (a logged-in page's Suspense renders only once the session is checked): the
 * first page's code downloads beside the session check instead of after it. A failed load is left
 * to the page's own render, which meets it again.
 */
export function preloadPage(pathname: string): void {
  for (const match of matchRoutes(routes, pathname) ?? []) {
    (match.route.handle as PageHandle | undefined)?.load().catch(() => {});
  }
}
