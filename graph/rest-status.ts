/** HTTP status of a typed error on the REST routes (GraphQL answers 200 and a `…Result` union member). */
export const restStatusFor = (code: string): number => {
  if (code === 'UNAUTHENTICATED') return 401;
  if (code === 'FORBIDDEN') return 403;
  if (code === 'NOT_FOUND' || code.endsWith('_NOT_FOUND')) return 404;
  if (code === 'VALIDATION') return 400;
  if (code === 'RATE_LIMITED') return 429;
  if (code === 'STALE_VERSION' || code === 'HANDLE_TAKEN' || code === 'IDEMPOTENCY_KEY_REUSED') return 409;
  return 422; // a rule violation: the request was understood and refused by the rules
};
