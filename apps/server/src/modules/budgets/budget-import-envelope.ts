import { budgetImportBody, V } from '@solar/shared';

/** The reader thread's first message: its modules are loaded and it waits for the body. */
export const READER_READY = 'ready';

/** The import's JSON envelope once read: the format and the file's base64 text. */
export type Envelope =
  | { ok: true; format: 'csv' | 'xlsx'; contentBase64: string }
  /** A body that is not JSON (no `errors`, as Fastify answers malformed JSON) or fails the schema. */
  | { ok: false; reason: 'badRequest'; errors?: Record<string, string[]> };

/**
 * Reads POST budgets/import's body (up to 12 MB) as the route's schema `budgetImportBody` would, on the
 * reader's thread rather than the event loop (docs/security.md, "Uploads"): JSON, then the schema. Field
 * errors are keyed and worded as plugins/errors.ts words the schema's errors on every other route.
 */
export function readEnvelope(raw: Buffer): Envelope {
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    return { ok: false, reason: 'badRequest' };
  }
  const parsed = budgetImportBody.safeParse(json);
  if (parsed.success) {
    return { ok: true, format: parsed.data.format, contentBase64: parsed.data.content_base64 };
  }
  const errors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path.map(String).join('.') || 'body';
    const message = issue.message.startsWith('validation.') ? issue.message : V.invalidValue;
    const messages = (errors[field] ??= []);
    if (!messages.includes(message)) messages.push(message);
  }
  return { ok: false, reason: 'badRequest', errors };
}
