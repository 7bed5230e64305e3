-- The token endpoint's limit (service/oauth-token-limits.ts) keeps a bucket per OAuth app: subject kind
-- `client`, keyed by the app's client_id, beside the address, player and API key buckets.
ALTER TABLE "rate_limit_buckets" DROP CONSTRAINT "rate_limit_buckets_subject_kind_check";
ALTER TABLE "rate_limit_buckets" ADD CONSTRAINT "rate_limit_buckets_subject_kind_check" CHECK ("subject_kind" IN ('address', 'player', 'apiKey', 'client'));
