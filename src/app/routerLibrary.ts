/**
 * The router library's parts the app's entry starts with (src/app/mount.tsx), imported on their
 * own by src/main.tsx so that evaluating react-router is a step of the first load by itself.
 */
export { BrowserRouter, useLocation, useRoutes } from 'react-router-dom';
