import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { MAX_UPLOAD_BYTES } from '../engine/lexicon/upload.js';
import { GraphQLError, Kind, parse, visit, type DocumentNode, type ParseOptions } from './graphql.js';

/**
 * Request hardening before any resolver runs (issue 15, "query-cost amplification"): a cap on the body a
 * request may send, and caps on a document's tokens, aliases and directives applied while it is parsed.
 * Each refusal is a GraphQL error with a code of its own and an HTTP status, like the nesting guards of
 * graph/yoga.ts; the cost and depth limits are graph/limits.ts.
 *
 * Own plugins rather than GraphQL Armor's (@escape.tech/graphql-armor-*): Armor's token limit is a
 * parser subclass doing what graphql-js 16's own `maxTokens` parse option does, its alias and directive
 * limits are validation rules that run only after the whole document is parsed, and its errors carry no
 * code; here the counts run inside the parse function (so Yoga's parse cache remembers a refusal too),
 * every refusal has a stable code, and no second graphql entry point comes in through another package.
 */

export interface RequestLimits {
  /** Largest request body in bytes (default 256 KiB). */
  readonly maxBodyBytes: number;
  /** Largest body of a request whose only operation is `importGame` (a GCG record is up to 200,000 characters; default 1 MiB). */
  readonly maxImportBodyBytes: number;
  /**
   * Largest body of POST /v1/lexicons, the one route a whole word list is sent to (issue 21): the upload
   * cap plus room for a JSON body's escapes (default MAX_UPLOAD_BYTES + 1 MiB). By path only, so no
   * GraphQL request, whatever its operation, is read past `maxImportBodyBytes`.
   */
  readonly maxUploadBodyBytes: number;
  /** Lexical tokens a document may have (default 3,000; GraphiQL's introspection query has about 190). */
  readonly maxTokens: number;
  /** Aliased fields a document may have (default 30). */
  readonly maxAliases: number;
  /** Directives a document may use (default 50). */
  readonly maxDirectives: number;
}

export const DEFAULT_REQUEST_LIMITS: RequestLimits = {
  maxBodyBytes: 256 * 1024,
  maxImportBodyBytes: 1024 * 1024,
  // "\n" escapes one byte as two: a 5 MB list of 8-letter words gains about 0.6 MB as JSON; text/plain gains nothing.
  maxUploadBodyBytes: MAX_UPLOAD_BYTES + 1024 * 1024,
  maxTokens: 3_000,
  maxAliases: 30,
  maxDirectives: 50,
};

/** The root fields a large body may carry: a GCG import, a word list (issue 21). */
const LARGE_BODY_FIELDS: ReadonlySet<string> = new Set(['importGame', 'uploadLexicon']);

const tooLarge = (bytes: number | null, limit: number, why: string) =>
  createGraphQLError(
    `The request body is ${bytes === null ? 'larger than the limit' : `${bytes} bytes`}; the limit is ${limit} bytes${why}.`,
    {
      extensions: { code: 'REQUEST_TOO_LARGE', maxBytes: limit, http: { status: 413 } },
    },
  );

/** Reads at most `limit + 1` bytes of the body; null when it is longer (the rest is never read). */
const boundedBodyLength = async (request: Request, limit: number): Promise<number | null> => {
  const reader = request.clone().body?.getReader();
  if (!reader) return 0;
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return size;
      size += value.byteLength;
      if (size > limit) return null;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
};

/** POST /v1/lexicons (the REST upload route, rest/routes/rules.ts), matched as rest/request.ts matches it for text/plain. */
const isUploadRoute = (request: Request): boolean => request.method === 'POST' && new URL(request.url).pathname.endsWith('/v1/lexicons');

/**
 * Caps the body: refuses any body over `maxImportBodyBytes` (`maxUploadBodyBytes` on the upload route)
 * before reading it (Content-Length) or as soon as it passes the cap (a chunked body), and a body over
 * `maxBodyBytes` at execution unless the operation is an import or an upload. REST routes included (the
 * hook runs before SOFA's).
 */
export const useBodyLimit = (limits: RequestLimits): Plugin => {
  const sizes = new WeakMap<Request, number>();
  /** The error for an operation whose body is over `maxBodyBytes` (imports and uploads aside); null when it is within. */
  const overBody = (args: { contextValue: unknown; document: unknown }) => {
    const request = (args.contextValue as { request?: Request }).request;
    const size = request ? (sizes.get(request) ?? 0) : 0;
    if (size <= limits.maxBodyBytes) return null;
    const roots = (args.document as DocumentNode).definitions.flatMap((d) =>
      d.kind === Kind.OPERATION_DEFINITION ? d.selectionSet.selections.map((s) => (s.kind === Kind.FIELD ? s.name.value : '')) : [],
    );
    if (roots.length > 0 && roots.every((name: string) => LARGE_BODY_FIELDS.has(name))) return null;
    return tooLarge(size, limits.maxBodyBytes, ` (${limits.maxImportBodyBytes} for importGame alone)`);
  };
  return {
    async onRequest({ request, endResponse }) {
      if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return;
      const cap = isUploadRoute(request) ? limits.maxUploadBodyBytes : limits.maxImportBodyBytes;
      const declared = request.headers.get('content-length');
      const length = declared !== null && /^\d+$/.test(declared) ? Number(declared) : await boundedBodyLength(request, cap);
      if (length === null || length > cap) {
        const error = tooLarge(length, cap, '');
        endResponse(
          Response.json({ errors: [{ message: error.message, extensions: { ...error.extensions, http: undefined } }] }, { status: 413 }),
        );
        return;
      }
      sizes.set(request, length);
    },
    onExecute({ args, setResultAndStopExecution }) {
      const error = overBody(args);
      if (error) setResultAndStopExecution({ errors: [error] });
    },
    // A subscription (gameEvents over SSE) is not executed but subscribed: the same cap.
    onSubscribe({ args, setResultAndStopExecution }) {
      const error = overBody(args);
      if (error) setResultAndStopExecution({ errors: [error] });
    },
  };
};

/** Aliases and directives of a parsed document (graphql-js's `visit` walks without recursion). */
export const countAliasesAndDirectives = (document: DocumentNode): { aliases: number; directives: number } => {
  let aliases = 0;
  let directives = 0;
  visit(document, {
    Field: (node) => {
      if (node.alias) aliases++;
    },
    Directive: () => {
      directives++;
    },
  });
  return { aliases, directives };
};

const refuse = (code: string, message: string, extensions: Record<string, unknown>) =>
  createGraphQLError(message, { extensions: { code, ...extensions, http: { status: 400 } } });

/** graphql-js's parser with the token cap, then the alias and directive counts: one function, so Yoga's parse cache keeps its refusals. */
export const limitedParse =
  (limits: RequestLimits) =>
  (source: Parameters<typeof parse>[0], options?: ParseOptions): DocumentNode => {
    let document: DocumentNode;
    try {
      // graphql-js stops lexing at the cap, so a 100,000-token document costs no more than a 3,000-token one.
      document = parse(source, { ...options, maxTokens: limits.maxTokens });
    } catch (e) {
      if (e instanceof GraphQLError && /tokens\. Parsing aborted\./.test(e.message)) {
        throw refuse('QUERY_TOO_MANY_TOKENS', `The document has more than ${limits.maxTokens} tokens; the limit is ${limits.maxTokens}.`, {
          maxTokens: limits.maxTokens,
        });
      }
      throw e;
    }
    const { aliases, directives } = countAliasesAndDirectives(document);
    if (aliases > limits.maxAliases) {
      throw refuse('QUERY_TOO_MANY_ALIASES', `The document has ${aliases} aliases; the limit is ${limits.maxAliases}.`, {
        aliases,
        maxAliases: limits.maxAliases,
      });
    }
    if (directives > limits.maxDirectives) {
      throw refuse('QUERY_TOO_MANY_DIRECTIVES', `The document has ${directives} directives; the limit is ${limits.maxDirectives}.`, {
        directives,
        maxDirectives: limits.maxDirectives,
      });
    }
    return document;
  };

/** Parses every document with {@link limitedParse}. */
export const useDocumentLimits = (limits: RequestLimits): Plugin => ({
  onParse: ({ setParseFn }) => {
    setParseFn(limitedParse(limits));
  },
});

/** Both plugins, in the order they must run: the body cap first (before SOFA reads a REST body), the document caps at parse. */
export const useRequestArmor = (limits: RequestLimits = DEFAULT_REQUEST_LIMITS): Plugin[] => [
  useBodyLimit(limits),
  useDocumentLimits(limits),
];
