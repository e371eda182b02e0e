import { useEffect, useState } from 'react';
import { XSRF_COOKIE, XSRF_HEADER } from '@solar/shared';
import { readCookie } from './cookies';

let once: Promise<string | null> | null = null;

/**
 * The admin's logo URL for the logged-out pages (GET settings/public `logo_url`), null without one. Those
 * pages run on the light public entry, without the API client or TanStack Query: a plain fetch, once per
 * page load and shared by every caller; a failed call shows the built-in mark.
 */
async function fetchLogoUrl(): Promise<string | null> {
  try {
    // Like every API call (spec), it carries the anti-forgery header when the cookie is there.
    const headers: Record<string, string> = { Accept: 'application/json' };
    const xsrf = readCookie(document.cookie, XSRF_COOKIE);
    if (xsrf) headers[XSRF_HEADER] = xsrf;
    const response = await fetch('/api/settings/public', { headers, credentials: 'include' });
    if (!response.ok) return null;
    const body = (await response.json()) as { logo_url?: unknown };
    // Only our own logo route: the answer is ours, but an image source is worth one check.
    return typeof body.logo_url === 'string' && body.logo_url.startsWith('/api/settings/logo')
      ? body.logo_url
      : null;
  } catch {
    return null;
  }
}

/** The logo URL once it is known (null until then, and without a logo). */
export function usePublicLogoUrl(): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    once ??= fetchLogoUrl();
    void once.then((u) => {
      if (live) setUrl(u);
    });
    return () => {
      live = false;
    };
  }, []);
  return url;
}
