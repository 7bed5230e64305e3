-- CreateTable
CREATE TABLE "players" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "handle" TEXT NOT NULL,
    "display_name" TEXT NOT NULL,
    "password_hash" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "players_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "owner_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "scopes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "lexicons" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "content_hash" TEXT NOT NULL,
    "word_count" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "lexicons_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "games" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "rule_set_id" TEXT NOT NULL,
    "rule_overrides" JSONB NOT NULL DEFAULT '{}',
    "lexicon_name" TEXT NOT NULL,
    "lexicon_hash" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    "turn_seat" INTEGER,
    "deadline_at" TIMESTAMPTZ(3),
    "bag_seed_commitment" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "games_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "game_secrets" (
    "game_id" UUID NOT NULL,
    "bag_seed" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "game_secrets_pkey" PRIMARY KEY ("game_id")
);

-- CreateTable
CREATE TABLE "seats" (
    "game_id" UUID NOT NULL,
    "seat" INTEGER NOT NULL,
    "player_id" UUID,

    CONSTRAINT "seats_pkey" PRIMARY KEY ("game_id","seat")
);

-- CreateTable
CREATE TABLE "game_events" (
    "game_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "game_events_pkey" PRIMARY KEY ("game_id","seq")
);

-- CreateTable
CREATE TABLE "idempotency_keys" (
    "scope" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "response" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("scope","key")
);

-- CreateTable
CREATE TABLE "outbox" (
    "id" BIGSERIAL NOT NULL,
    "game_id" UUID NOT NULL,
    "event_seq" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "delivered_at" TIMESTAMPTZ(3),
    "last_error" TEXT,

    CONSTRAINT "outbox_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "players_handle_key" ON "players"("handle");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_prefix_key" ON "api_keys"("prefix");

-- CreateIndex
CREATE INDEX "api_keys_owner_id_idx" ON "api_keys"("owner_id");

-- CreateIndex
CREATE UNIQUE INDEX "lexicons_name_content_hash_key" ON "lexicons"("name", "content_hash");

-- CreateIndex
CREATE INDEX "games_deadline_at_idx" ON "games"("deadline_at");

-- CreateIndex
CREATE INDEX "seats_player_id_game_id_idx" ON "seats"("player_id", "game_id");

-- CreateIndex
CREATE INDEX "outbox_game_id_event_seq_idx" ON "outbox"("game_id", "event_seq");

-- CreateIndex
CREATE INDEX "outbox_delivered_at_next_attempt_at_idx" ON "outbox"("delivered_at", "next_attempt_at");

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "games" ADD CONSTRAINT "games_lexicon_name_lexicon_hash_fkey" FOREIGN KEY ("lexicon_name", "lexicon_hash") REFERENCES "lexicons"("name", "content_hash") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "game_secrets" ADD CONSTRAINT "game_secrets_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "seats" ADD CONSTRAINT "seats_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "seats" ADD CONSTRAINT "seats_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "game_events" ADD CONSTRAINT "game_events_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_game_id_event_seq_fkey" FOREIGN KEY ("game_id", "event_seq") REFERENCES "game_events"("game_id", "seq") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Hand-written below this line: Prisma's schema language cannot express these, and `prisma migrate diff`
-- neither creates nor drops CHECK constraints, functions or triggers, so they do not show up as drift.

-- Seats are 0 and 1 (two-player games); versions count events.
ALTER TABLE "seats" ADD CONSTRAINT "seats_seat_check" CHECK ("seat" IN (0, 1));
ALTER TABLE "games" ADD CONSTRAINT "games_turn_seat_check" CHECK ("turn_seat" IN (0, 1));
ALTER TABLE "games" ADD CONSTRAINT "games_version_check" CHECK ("version" >= 0);
ALTER TABLE "game_events" ADD CONSTRAINT "game_events_seq_check" CHECK ("seq" >= 1);

-- The game log is append-only: the database itself refuses to change or remove an event.
CREATE FUNCTION "game_events_append_only"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'game_events is append-only: % is not allowed', TG_OP
        USING ERRCODE = 'P0001', HINT = 'Append a new event instead.';
END;
$$;

CREATE TRIGGER "game_events_no_update_delete"
    BEFORE UPDATE OR DELETE ON "game_events"
    FOR EACH ROW EXECUTE FUNCTION "game_events_append_only"();

CREATE TRIGGER "game_events_no_truncate"
    BEFORE TRUNCATE ON "game_events"
    FOR EACH STATEMENT EXECUTE FUNCTION "game_events_append_only"();
