/**
 * The server's CSP allows no eval. Without this, zod probes `new Function('')` when the first object
 * schema is built (to compile fast parsers); the probe's error is caught, but Chromium still reports a
 * `script-src` violation. Jitless parsing needs no eval.
 *
 * zod keeps its configuration on `globalThis.__zod_globalConfig` (so that copies of zod share it) and
 * reads it when loaded; setting it here, before any schema module loads, is `z.config({ jitless: true })`
 * without pulling zod into the first chunk (the login page loads zod only when a form validates).
 * Imported first by app.tsx. The browser suite's CSP test fails if this stops working.
 */
const holder = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
holder.__zod_globalConfig = { ...holder.__zod_globalConfig, jitless: true };

export {};
