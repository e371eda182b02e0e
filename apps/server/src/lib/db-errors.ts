/** Constraint violations of either dialect, so a race between check and write answers 409, not 500. */
function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** A foreign key refused the write (the parent is gone, or children still point at the row). */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** A unique constraint refused the write. */
export function isUniqueViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * SQLite could not get its lock within the short busy timeout: another process (a backup, an external
 * writer) holds the database. The write is refused with 503 and Retry-After instead of stalling the server.
 */
export function isDatabaseBusy(error: unknown): boolean {
  const code = codeOf(error);
  return code !== undefined && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/** Node's socket errors when the database server cannot be reached or dropped the connection. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
]);

/**
 * PostgreSQL cannot be reached: refused or broken connections, the server shutting down or starting
 * (57P01-57P03), connection exceptions (class 08), and pg's own "Connection terminated", connect
 * timeout and "not queryable" (a client that lost its connection mid-transaction). Answered 503 with Retry-After instead of 500: it passes once the database is back.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = codeOf(error);
  if (code !== undefined) return NETWORK_CODES.has(code) || /^(57P0[123]|08)/.test(code);
  const message = error instanceof Error ? error.message : '';
  return /^Connection terminated|timeout exceeded when trying to connect|encountered a connection error/i.test(
    message,
  );
}
