import type { Plugin } from 'graphql-yoga';
import { GraphQLSchema } from './graphql.js';

/**
 * SOFA mounts `POST /rest/webhook`, `POST /rest/webhook/{id}` and `DELETE /rest/webhook/{id}` whatever the
 * schema holds (sofa-api has no option to leave them out): with a Subscription type they would let any
 * caller have the server POST a subscription's events to a URL of its choice, past the destination rules
 * of service/webhook-destination.ts (a server-side request forgery; docs/live.md). Every request whose path
 * could reach them (any method, any case, percent-encoded or with doubled slashes) is refused with 404
 * before SOFA sees it; webhooks are registered with `createWebhookSubscription` instead (docs/webhooks.md).
 */
export const isSofaWebhookPath = (pathname: string): boolean => {
  let path = pathname;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    // a malformed escape: matched as written
  }
  return /^\/+rest\/+webhook(?:[/;.?#]|$)/i.test(path.replace(/\\/g, '/'));
};

export const SOFA_WEBHOOK_REFUSAL =
  "No route: SOFA's subscription webhooks are not served. Follow a game with GET /v1/games/{id}/events or the gameEvents subscription, or register a webhook with createWebhookSubscription.";

export const useSofaWebhookBlock = (): Plugin => ({
  onRequest: ({ url, endResponse }) => {
    if (!isSofaWebhookPath(url.pathname)) return;
    endResponse(Response.json({ code: 'NOT_FOUND', message: SOFA_WEBHOOK_REFUSAL }, { status: 404 }));
  },
});

const withoutSubscriptions = new WeakMap<GraphQLSchema, GraphQLSchema>();

/** `s` without its Subscription type: what SOFA is handed, so that its webhooks would have nothing to start even if reached. */
export const sofaSchema = (s: GraphQLSchema): GraphQLSchema => {
  const subscription = s.getSubscriptionType();
  if (!subscription) return s;
  let out = withoutSubscriptions.get(s);
  if (!out) {
    const config = s.toConfig();
    out = new GraphQLSchema({ ...config, subscription: null, types: config.types.filter((t) => t !== subscription) });
    withoutSubscriptions.set(s, out);
  }
  return out;
};
