import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { matchPublicPath, PublicApp } from './app/public-app';
import { loadAllTexts } from './lib/i18n';
import { initPreferences } from './lib/preferences-store';
import { getToken, useSession } from './lib/session-store';
import './styles.css';

const root = createRoot(document.getElementById('root')!);

/**
 * The console (router, query client, layout, pages) loads on demand: with a saved token, on a path
 * that is not a logged-out page, or once a sign-in succeeds. Until then the logged-out pages run on
 * the light public entry, which keeps /login's first load small.
 */
let consoleStarted = false;
function startConsole(): void {
  if (consoleStarted) return;
  consoleStarted = true;
  unsubscribe();
  void Promise.all([import('./app/app'), loadAllTexts()]).then(([{ ConsoleApp }]) =>
    root.render(
      <StrictMode>
        <ConsoleApp />
      </StrictMode>,
    ),
  );
}
const unsubscribe = useSession.subscribe((s) => {
  if (s.status === 'authenticated') startConsole();
});

// Load the saved locale before the first render so texts never flash in another language. A saved
// token is restored alongside the console's loading; until that ends, SessionGate shows a spinner, and a
// navigation or toast it asks for waits for the router and the toasts (lib/navigation, lib/notify).
void initPreferences().then(() => {
  const token = getToken();
  if (!token && matchPublicPath(window.location.pathname)) {
    useSession.getState().setStatus('anonymous');
    root.render(
      <StrictMode>
        <PublicApp onLeave={startConsole} />
      </StrictMode>,
    );
    return;
  }
  startConsole();
  if (token) {
    void import('./lib/session').then((m) => m.restoreSession()).catch(() => useSession.getState().logout());
  } else useSession.getState().setStatus('anonymous');
});
