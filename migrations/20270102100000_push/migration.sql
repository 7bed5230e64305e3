-- Web Push (issue 31, docs/notifications.md#web-push): the browsers a player asked to be told in. One row
-- per push endpoint: the endpoint is the browser's address at its push service, unique across players, so
-- a browser signed in as someone else takes the endpoint over instead of telling two people. The keys are
-- the browser's (RFC 8291): p256dh its public key, auth its secret. `application_server_key` is the VAPID
-- public key the browser subscribed with: after the keys are replaced, a push service refuses a message
-- signed with the new key for that subscription, so the sender drops such rows and the page subscribes again.
CREATE TABLE "push_subscriptions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "player_id" UUID NOT NULL,
    "endpoint" TEXT NOT NULL,
    "p256dh" TEXT NOT NULL,
    "auth" TEXT NOT NULL,
    "application_server_key" TEXT NOT NULL,
    "user_agent" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_success_at" TIMESTAMPTZ(3),
    "last_failure_at" TIMESTAMPTZ(3),
    "last_error" TEXT,

    CONSTRAINT "push_subscriptions_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "push_subscriptions_endpoint_key" ON "push_subscriptions"("endpoint");
CREATE INDEX "push_subscriptions_player_id_idx" ON "push_subscriptions"("player_id");

ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_player_id_fkey"
  FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;
