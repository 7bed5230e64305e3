-- CreateTable
CREATE TABLE "webhook_subscriptions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "api_key_id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "kinds" TEXT[],
    "secret" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "subscription_id" UUID NOT NULL,
    "outbox_id" BIGINT NOT NULL,
    "kind" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL,
    "last_status_code" INTEGER,
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_attempts" (
    "id" BIGSERIAL NOT NULL,
    "delivery_id" UUID NOT NULL,
    "attempt" INTEGER NOT NULL,
    "attempted_at" TIMESTAMPTZ(3) NOT NULL,
    "status_code" INTEGER,
    "duration_ms" INTEGER NOT NULL,
    "error" TEXT,

    CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "webhook_subscriptions_owner_id_idx" ON "webhook_subscriptions"("owner_id");

-- CreateIndex
CREATE INDEX "webhook_subscriptions_api_key_id_idx" ON "webhook_subscriptions"("api_key_id");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_deliveries_subscription_id_outbox_id_key" ON "webhook_deliveries"("subscription_id", "outbox_id");

-- CreateIndex
CREATE INDEX "webhook_deliveries_status_next_attempt_at_idx" ON "webhook_deliveries"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_subscription_id_created_at_idx" ON "webhook_deliveries"("subscription_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_attempts_delivery_id_attempt_key" ON "webhook_attempts"("delivery_id", "attempt");

-- AddForeignKey
ALTER TABLE "webhook_subscriptions" ADD CONSTRAINT "webhook_subscriptions_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_subscriptions" ADD CONSTRAINT "webhook_subscriptions_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "webhook_subscriptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_outbox_id_fkey" FOREIGN KEY ("outbox_id") REFERENCES "outbox"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written below this line: Prisma's schema language cannot express these, and `prisma migrate diff`
-- neither creates nor drops CHECK constraints, so they do not show up as drift.

-- Vocabularies as in service/webhooks.ts (WEBHOOK_EVENT_KINDS, WEBHOOK_DELIVERY_STATUSES).
ALTER TABLE "webhook_subscriptions" ADD CONSTRAINT "webhook_subscriptions_kinds_check"
    CHECK (COALESCE(cardinality("kinds"), 0) > 0 AND "kinds" <@ ARRAY['your-turn', 'game-ended', 'challenge-resolved']::TEXT[]);
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_status_check"
    CHECK ("status" IN ('pending', 'succeeded', 'failed', 'dead'));
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_attempts_check" CHECK ("attempts" >= 0);
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_attempt_check" CHECK ("attempt" >= 1);
