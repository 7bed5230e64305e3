-- Issue 30: tournaments. A tournament belongs to an event (an organization of kind 'event'; the service
-- checks the kind) and is an append-only event log like a game: `tournament_events` (seq 1, 2, …;
-- `tournaments.version` = the number of events). `tournament_players` is a projection of the log's
-- `player-added` events that have an account (who may see a private tournament, whom its webhooks reach).
-- A correspondence league's games point to their tournament, division and round. Tournament webhooks go
-- through the same outbox as games': a row announces either a game event or a tournament event.

-- CreateTable
CREATE TABLE "tournaments" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "public" BOOLEAN NOT NULL DEFAULT true,
    "version" INTEGER NOT NULL DEFAULT 0,
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "tournaments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tournament_events" (
    "tournament_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "actor_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tournament_events_pkey" PRIMARY KEY ("tournament_id","seq")
);

-- CreateTable
CREATE TABLE "tournament_players" (
    "tournament_id" UUID NOT NULL,
    "division" TEXT NOT NULL,
    "entrant" INTEGER NOT NULL,
    "player_id" UUID NOT NULL,

    CONSTRAINT "tournament_players_pkey" PRIMARY KEY ("tournament_id","division","entrant")
);

-- AlterTable
ALTER TABLE "games" ADD COLUMN     "tournament_id" UUID,
ADD COLUMN     "tournament_division" TEXT,
ADD COLUMN     "tournament_round" INTEGER;

-- AlterTable
ALTER TABLE "outbox" ALTER COLUMN "game_id" DROP NOT NULL,
ALTER COLUMN "event_seq" DROP NOT NULL,
ADD COLUMN     "tournament_id" UUID,
ADD COLUMN     "tournament_seq" INTEGER;

-- CreateIndex
CREATE INDEX "tournaments_organization_id_created_at_idx" ON "tournaments"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "tournament_players_player_id_idx" ON "tournament_players"("player_id");

-- CreateIndex
CREATE INDEX "games_tournament_id_idx" ON "games"("tournament_id");

-- CreateIndex
CREATE INDEX "outbox_tournament_id_tournament_seq_idx" ON "outbox"("tournament_id", "tournament_seq");

-- AddForeignKey
ALTER TABLE "tournaments" ADD CONSTRAINT "tournaments_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tournaments" ADD CONSTRAINT "tournaments_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "players"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tournament_events" ADD CONSTRAINT "tournament_events_tournament_id_fkey" FOREIGN KEY ("tournament_id") REFERENCES "tournaments"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tournament_events" ADD CONSTRAINT "tournament_events_actor_id_fkey" FOREIGN KEY ("actor_id") REFERENCES "players"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tournament_players" ADD CONSTRAINT "tournament_players_tournament_id_fkey" FOREIGN KEY ("tournament_id") REFERENCES "tournaments"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tournament_players" ADD CONSTRAINT "tournament_players_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "games" ADD CONSTRAINT "games_tournament_id_fkey" FOREIGN KEY ("tournament_id") REFERENCES "tournaments"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_tournament_id_tournament_seq_fkey" FOREIGN KEY ("tournament_id", "tournament_seq") REFERENCES "tournament_events"("tournament_id", "seq") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Hand-written below this line: Prisma's schema language cannot express these, and `prisma migrate diff`
-- neither creates nor drops CHECK constraints, functions or triggers, so they do not show up as drift.

ALTER TABLE "tournaments" ADD CONSTRAINT "tournaments_version_check" CHECK ("version" >= 0);
ALTER TABLE "tournament_events" ADD CONSTRAINT "tournament_events_seq_check" CHECK ("seq" >= 1);
ALTER TABLE "tournament_players" ADD CONSTRAINT "tournament_players_entrant_check" CHECK ("entrant" >= 1);

-- A game is in a tournament with its division and round, or in none with neither.
ALTER TABLE "games" ADD CONSTRAINT "games_tournament_check"
    CHECK (("tournament_id" IS NULL AND "tournament_division" IS NULL AND "tournament_round" IS NULL)
        OR ("tournament_id" IS NOT NULL AND "tournament_division" IS NOT NULL AND "tournament_round" >= 1));

-- An outbox row announces an event of exactly one log: a game's or a tournament's.
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_log_check"
    CHECK (("game_id" IS NOT NULL AND "event_seq" IS NOT NULL AND "tournament_id" IS NULL AND "tournament_seq" IS NULL)
        OR ("game_id" IS NULL AND "event_seq" IS NULL AND "tournament_id" IS NOT NULL AND "tournament_seq" IS NOT NULL));

-- The tournament log is append-only, as the game log is: the database refuses to change or remove an event.
CREATE FUNCTION "tournament_events_append_only"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'tournament_events is append-only: % is not allowed', TG_OP
        USING ERRCODE = 'P0001', HINT = 'Append a new event instead.';
END;
$$;

CREATE TRIGGER "tournament_events_no_update_delete"
    BEFORE UPDATE OR DELETE ON "tournament_events"
    FOR EACH ROW EXECUTE FUNCTION "tournament_events_append_only"();

CREATE TRIGGER "tournament_events_no_truncate"
    BEFORE TRUNCATE ON "tournament_events"
    FOR EACH STATEMENT EXECUTE FUNCTION "tournament_events_append_only"();

-- Webhook kinds (service/webhook-events.ts WEBHOOK_EVENT_KINDS): the game kinds, the dispute kinds (which the
-- constraint of 20261125120000_webhooks did not list yet) and the tournament kinds.
ALTER TABLE "webhook_subscriptions" DROP CONSTRAINT "webhook_subscriptions_kinds_check";
ALTER TABLE "webhook_subscriptions" ADD CONSTRAINT "webhook_subscriptions_kinds_check"
    CHECK (COALESCE(cardinality("kinds"), 0) > 0 AND "kinds" <@ ARRAY['your-turn', 'game-ended', 'challenge-resolved', 'dispute-filed', 'dispute-ruled',
        'round-paired', 'result-recorded', 'slip-submitted', 'standings-changed']::TEXT[]);
