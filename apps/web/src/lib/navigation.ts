type Navigate = (to: string) => void;

let navigator: Navigate | null = null;
/** Where code asked to go before the router existed (a session found invalid while the app starts). */
let pending: string | null = null;

/** Lets the router take over navigation from code outside React (the API client's 401 handling). */
export function setNavigator(navigate: Navigate): void {
  navigator = navigate;
  if (pending === null) return;
  const to = pending;
  pending = null;
  navigate(to);
}

/**
 * Navigates with the registered router. Before one registers, the target waits for it: a full page load
 * would drop the message that explains the navigation.
 */
export function navigateTo(to: string): void {
  if (navigator) navigator(to);
  else pending = to;
}
