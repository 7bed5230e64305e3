-- Notifications (issue 31, docs/notifications.md): players' preferences, and one row per player, channel
-- (push, e-mail) and fact told. The notifier marks outbox rows with its own `notified_at`, so the webhook
-- fan-out's `delivered_at` keeps its meaning and neither waits for the other.
ALTER TABLE "outbox" ADD COLUMN "notified_at" TIMESTAMPTZ(3);

-- What happened before notifications existed is old news: nobody is told of it now.
UPDATE "outbox" SET "notified_at" = CURRENT_TIMESTAMP;

-- The notifier's scan: rows it has not turned into notifications yet.
CREATE INDEX "outbox_notified_at_idx" ON "outbox"("id") WHERE "notified_at" IS NULL;

CREATE TABLE "notification_preferences" (
    "player_id" UUID NOT NULL,
    "channels" JSONB NOT NULL DEFAULT '{}',
    "email_mode" TEXT NOT NULL DEFAULT 'digest',
    "digest_hour" INTEGER NOT NULL DEFAULT 8,
    "time_zone" TEXT NOT NULL DEFAULT 'UTC',
    "quiet_start" TEXT DEFAULT '22:00',
    "quiet_end" TEXT DEFAULT '07:00',
    "not_while_connected" BOOLEAN NOT NULL DEFAULT true,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "notification_preferences_pkey" PRIMARY KEY ("player_id"),
    CONSTRAINT "notification_preferences_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "notification_preferences_email_mode_check" CHECK ("email_mode" IN ('immediate', 'digest')),
    CONSTRAINT "notification_preferences_digest_hour_check" CHECK ("digest_hour" BETWEEN 0 AND 23),
    CONSTRAINT "notification_preferences_quiet_check" CHECK (("quiet_start" IS NULL) = ("quiet_end" IS NULL))
);

CREATE TABLE "notifications" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "player_id" UUID NOT NULL,
    "channel" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "outbox_id" BIGINT,
    "game_id" UUID,
    "tournament_id" UUID,
    "version" INTEGER,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "reason" TEXT,
    "digest" BOOLEAN NOT NULL DEFAULT false,
    "due_at" TIMESTAMPTZ(3) NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "sent_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "notifications_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "notifications_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "notifications_channel_check" CHECK ("channel" IN ('push', 'email')),
    CONSTRAINT "notifications_status_check" CHECK ("status" IN ('pending', 'sent', 'skipped', 'dead'))
);

CREATE UNIQUE INDEX "notifications_source_player_id_channel_key" ON "notifications"("source", "player_id", "channel");
CREATE INDEX "notifications_status_due_at_idx" ON "notifications"("status", "due_at");
CREATE INDEX "notifications_player_id_created_at_idx" ON "notifications"("player_id", "created_at");
