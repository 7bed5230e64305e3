-- The lobby (issue 33, docs/lobby.md): seeks (open offers anyone may accept), challenges to a named player
-- (and rematches, which are challenges), and correspondence pairing requests. Each row is the offer; the game
-- it leads to is an ordinary game, created in the transaction that closes the offer (`game_id`).
-- No Prisma relations: the players and games point nowhere back, so the other models stay untouched.

-- CreateTable
CREATE TABLE "seeks" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "author_id" UUID NOT NULL,
    "rule_set_id" TEXT NOT NULL,
    "rule_overrides" JSONB NOT NULL DEFAULT '{}',
    "lexicon_name" TEXT NOT NULL,
    "days_per_move" INTEGER NOT NULL,
    "rated" BOOLEAN NOT NULL,
    "category" TEXT NOT NULL,
    "rating_min" INTEGER,
    "rating_max" INTEGER,
    "status" TEXT NOT NULL DEFAULT 'open',
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closed_at" TIMESTAMPTZ(3),
    "acceptor_id" UUID,
    "game_id" UUID,

    CONSTRAINT "seeks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "challenges" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "challenger_id" UUID NOT NULL,
    "challenged_id" UUID NOT NULL,
    "rule_set_id" TEXT NOT NULL,
    "rule_overrides" JSONB NOT NULL DEFAULT '{}',
    "lexicon_name" TEXT NOT NULL,
    "time_control" JSONB NOT NULL,
    "rated" BOOLEAN NOT NULL,
    "category" TEXT,
    "challenger_seat" INTEGER NOT NULL DEFAULT 0,
    "first_seat" INTEGER NOT NULL DEFAULT 0,
    "rematch_of" UUID,
    "status" TEXT NOT NULL DEFAULT 'open',
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closed_at" TIMESTAMPTZ(3),
    "game_id" UUID,

    CONSTRAINT "challenges_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "pairing_requests" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "player_id" UUID NOT NULL,
    "rule_set_id" TEXT NOT NULL,
    "lexicon_name" TEXT NOT NULL,
    "days_per_move" INTEGER NOT NULL,
    "rated" BOOLEAN NOT NULL,
    "category" TEXT NOT NULL,
    "rating" DOUBLE PRECISION NOT NULL,
    "rating_range" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'waiting',
    "wait_until" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closed_at" TIMESTAMPTZ(3),
    "game_id" UUID,
    "opponent_id" UUID,

    CONSTRAINT "pairing_requests_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
-- The list of open seeks, newest first, and the accept's `status = 'open' AND expires_at > now` test read it
-- by primary key; this one keeps the listing an index scan however many seeks have closed.
CREATE INDEX "seeks_status_created_at_id_idx" ON "seeks"("status", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "seeks_author_id_status_idx" ON "seeks"("author_id", "status");

-- CreateIndex
CREATE INDEX "challenges_challenged_id_status_idx" ON "challenges"("challenged_id", "status");

-- CreateIndex
CREATE INDEX "challenges_challenger_id_status_idx" ON "challenges"("challenger_id", "status");

-- CreateIndex
-- The matcher's candidates: waiting requests of one category, nearest rating first.
CREATE INDEX "pairing_requests_status_category_rating_idx" ON "pairing_requests"("status", "category", "rating");

-- CreateIndex
CREATE INDEX "pairing_requests_player_id_status_idx" ON "pairing_requests"("player_id", "status");

-- AddForeignKey
ALTER TABLE "seeks" ADD CONSTRAINT "seeks_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "seeks" ADD CONSTRAINT "seeks_acceptor_id_fkey" FOREIGN KEY ("acceptor_id") REFERENCES "players"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "seeks" ADD CONSTRAINT "seeks_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "challenges" ADD CONSTRAINT "challenges_challenger_id_fkey" FOREIGN KEY ("challenger_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "challenges" ADD CONSTRAINT "challenges_challenged_id_fkey" FOREIGN KEY ("challenged_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "challenges" ADD CONSTRAINT "challenges_rematch_of_fkey" FOREIGN KEY ("rematch_of") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "challenges" ADD CONSTRAINT "challenges_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pairing_requests" ADD CONSTRAINT "pairing_requests_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pairing_requests" ADD CONSTRAINT "pairing_requests_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Hand-written below this line: Prisma's schema language cannot express these, and `prisma migrate diff`
-- neither creates nor drops CHECK constraints or partial indexes, so they do not show up as drift.

-- An expired seek keeps status 'open': expiry is `expires_at <= now()`, read at the moment it matters, so no
-- sweep has to run for a seek to stop being acceptable.
ALTER TABLE "seeks" ADD CONSTRAINT "seeks_status_check" CHECK ("status" IN ('open', 'accepted', 'withdrawn'));
ALTER TABLE "seeks" ADD CONSTRAINT "seeks_rating_range_check" CHECK ("rating_min" IS NULL OR "rating_max" IS NULL OR "rating_min" <= "rating_max");

ALTER TABLE "challenges" ADD CONSTRAINT "challenges_status_check" CHECK ("status" IN ('open', 'accepted', 'declined', 'withdrawn'));
ALTER TABLE "challenges" ADD CONSTRAINT "challenges_seats_check" CHECK ("challenger_seat" IN (0, 1) AND "first_seat" IN (0, 1));
ALTER TABLE "challenges" ADD CONSTRAINT "challenges_players_check" CHECK ("challenger_id" <> "challenged_id");
-- One open rematch per game: a second request while one is open is refused (REMATCH_EXISTS).
CREATE UNIQUE INDEX "challenges_open_rematch_key" ON "challenges"("rematch_of") WHERE "status" = 'open' AND "rematch_of" IS NOT NULL;

ALTER TABLE "pairing_requests" ADD CONSTRAINT "pairing_requests_status_check"
  CHECK ("status" IN ('waiting', 'paired', 'robot-offered', 'robot-accepted', 'withdrawn'));
-- One waiting request per player and category: a second would pair the player with themselves in effect.
CREATE UNIQUE INDEX "pairing_requests_waiting_key" ON "pairing_requests"("player_id", "category") WHERE "status" IN ('waiting', 'robot-offered');
