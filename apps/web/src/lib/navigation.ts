type Navigate = (to: string) => void;

let navigator: Navigate = (to) => {
  globalThis.location?.assign(to);
};

/** Lets the router take over navigation from code outside React (the API client's 401 handling). */
export function setNavigator(navigate: Navigate): void {
  navigator = navigate;
}

/** Navigates with the registered router, or with a full page load before one is registered. */
export function navigateTo(to: string): void {
  navigator(to);
}
