import { Navigate, type RouteObject } from 'react-router-dom';
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

/**
 * The small screens of signing in (landing, callback, session check and the logged-in layout) come
 * with the app; the dashboard (its clan desks and events, about 15 KB that a spectator's page never
 * shows), onboarding (a first visit's form, with its chart), the lobbies,
 * the spectate list, the board and live game, clan management and the profile load on first
 * visit (and the avatar menu once signed in, Navbar),
 * so the landing page and a spectator's game page each download only what they show. Until a page's code arrives it shows PageLoading
 * (its HydrateFallback).
 */
const lazyPage = (load: () => Promise<{ Component: React.ComponentType }>) => ({ lazy: load, HydrateFallback: PageLoading });

/** The lazily loaded screens. */
const onboardingPage = () => import('../features/onboarding/OnboardingPage').then((m) => ({ Component: m.OnboardingPage }));
const dashboardPage = () => import('../features/dashboard/DashboardPage').then((m) => ({ Component: m.DashboardPage }));
const spectatorViewPage = () => import('../features/spectate/SpectatorViewPage').then((m) => ({ Component: m.SpectatorViewPage }));
const profilePage = () => import('../features/profile/ProfilePage').then((m) => ({ Component: m.ProfilePage }));
const gamesLobbyPage = () => import('../features/lobby/GamesLobbyPage').then((m) => ({ Component: m.GamesLobbyPage }));
const gamePlayPage = () => import('../features/play/GamePlayPage').then((m) => ({ Component: m.GamePlayPage }));
const clanManagePage = () => import('../features/clan/ClanManagePage').then((m) => ({ Component: m.ClanManagePage }));
const draftRoomPage = () => import('../features/draft/DraftRoomPage').then((m) => ({ Component: m.DraftRoomPage }));

/** The spectate list, shown in both layouts. */
const spectateList = () => import('../features/spectate/SpectateListPage').then((m) => ({ Component: m.SpectateListPage }));

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
      { path: '/games/spectate', ...lazyPage(spectateList) },
      { path: '/games/spectate/:gameId', ...lazyPage(spectatorViewPage) },
      // verifyPath (src/base/paths.ts) builds links to it.
      { path: '/games/:gameId/verify', ...lazyPage(async () => ({ Component: (await import('../features/verify/VerifyDicePage')).VerifyDicePage })) },
      { path: '/games/:gameId/results', ...lazyPage(async () => ({ Component: (await import('../features/results/ResultsPage')).ResultsPage })) },
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
        children: [{ path: 'spectate-auth', ...lazyPage(spectateList) }],
      },
      { path: '/games/clan/:clanId/events/:eventId/game/:gameId', ...lazyPage(gamePlayPage) },
      { path: '/clans/manage/:clanId/*', ...lazyPage(clanManagePage) },
      // draftPath (src/base/paths.ts) builds links to it.
      { path: '/clans/:clanId/events/:eventId/draft', ...lazyPage(draftRoomPage) },
    ],
  },
  { path: '*', element: <Navigate to="/" replace /> },
];
