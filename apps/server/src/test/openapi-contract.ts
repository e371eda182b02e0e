import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

interface MediaType {
  schema?: unknown;
}
interface Operation {
  responses: Record<string, { content?: Record<string, MediaType> }>;
}
/** The parts of an OpenAPI 3.0 document the contract check reads. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: Record<string, unknown>;
}

/** One real answer, as app.inject gives it. */
export interface Answer {
  method: string;
  /** The requested path, with or without its query string. */
  path: string;
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/**
 * OpenAPI 3.0 schemas are JSON Schema draft 4 in this respect: `exclusiveMinimum: true` qualifies `minimum`.
 * Ajv speaks draft 7, where the exclusive bound is the number itself. (`nullable` ajv knows natively.)
 */
function toDraft7(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toDraft7);
  if (node === null || typeof node !== 'object') return node;
  const schema = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, toDraft7(v)]));
  for (const [bound, exclusive] of [
    ['minimum', 'exclusiveMinimum'],
    ['maximum', 'exclusiveMaximum'],
  ] as const) {
    if (typeof schema[exclusive] !== 'boolean') continue;
    if (schema[exclusive]) schema[exclusive] = schema[bound];
    else delete schema[exclusive];
    if (schema[exclusive] !== undefined) delete schema[bound];
  }
  return schema;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Checks real answers against what an OpenAPI document promises for their path, method, status and media
 * type: the status and media type must be declared, and a JSON body must match the declared schema (ajv +
 * ajv-formats in OpenAPI 3.0 flavour: `nullable`, draft-4 exclusive bounds, unknown keywords ignored).
 */
export class ContractChecker {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction | string>();
  /** Document paths as patterns; fewest parameters first, so `/users/dashboard` wins over `/users/{id}`. */
  private readonly patterns: { path: string; pattern: RegExp }[];

  constructor(private readonly doc: OpenApiDocument) {
    addFormats(this.ajv);
    this.patterns = Object.keys(doc.paths)
      .map((path) => ({
        path,
        params: (path.match(/\{/g) ?? []).length,
        // The server's router ignores case and a trailing slash.
        pattern: new RegExp(
          `^${path
            .split(/\{[^}]+\}/)
            .map(escapeRegExp)
            .join('[^/]+')}/?$`,
          'i',
        ),
      }))
      .sort((a, b) => a.params - b.params);
  }

  /** The document path an answer's request path falls under, if any. */
  pathOf(requestPath: string): string | undefined {
    const bare = requestPath.split('?')[0]!;
    return this.patterns.find((p) => p.pattern.test(bare))?.path;
  }

  /** Whether the document has an operation for this path and method. */
  describes(path: string, method: string): boolean {
    return this.doc.paths[path]?.[method.toLowerCase()] !== undefined;
  }

  /** A violation of the document by this answer, or undefined when it keeps the promise. */
  check(answer: Answer): string | undefined {
    const path = this.pathOf(answer.path);
    // Named by the document's path, so that one broken promise reads as one line however many ids hit it.
    const where = `${answer.method} ${path ?? answer.path.split('?')[0]} → ${answer.statusCode}`;
    const operation = path ? this.doc.paths[path]?.[answer.method.toLowerCase()] : undefined;
    if (!path || !operation) return `${where}: no such operation in the document`;
    const response = operation.responses[String(answer.statusCode)];
    if (!response) return `${where}: status not declared`;
    const header = answer.headers['content-type'];
    const mediaType = (typeof header === 'string' ? header : '').split(';')[0]!.trim();
    if ((answer.statusCode === 204 || answer.statusCode === 304) && !answer.body && !response.content)
      return undefined;
    const declared = response.content?.[mediaType];
    if (!declared) {
      const names = Object.keys(response.content ?? {}).join(', ') || 'none';
      return `${where}: media type ${mediaType || 'none'} not declared (declared: ${names})`;
    }
    if (!mediaType.endsWith('json')) return undefined;
    const key = `${answer.method} ${path} ${answer.statusCode} ${mediaType}`;
    let validate = this.validators.get(key);
    if (validate === undefined) {
      try {
        validate = this.ajv.compile(
          toDraft7({ ...(declared.schema as object), components: this.doc.components }) as object,
        );
      } catch (error) {
        validate = `schema does not compile: ${(error as Error).message}`;
      }
      this.validators.set(key, validate);
    }
    if (typeof validate === 'string') return `${where}: ${validate}`;
    if (validate(JSON.parse(answer.body))) return undefined;
    const errors = (validate.errors ?? [])
      .slice(0, 5)
      .map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
    return `${where}: answer does not match its schema: ${errors.join('; ')}`;
  }
}
