-- AlterTable
ALTER TABLE "games" ADD COLUMN     "match_id" UUID,
ADD COLUMN     "match_index" INTEGER;

-- CreateTable
CREATE TABLE "matches" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "rule_set_id" TEXT NOT NULL,
    "rule_overrides" JSONB NOT NULL DEFAULT '{}',
    "game_count" INTEGER NOT NULL,
    "creator_id" UUID NOT NULL,
    "opponent_id" UUID,
    "status" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "matches_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "matches_creator_id_idx" ON "matches"("creator_id");

-- CreateIndex
CREATE INDEX "matches_opponent_id_idx" ON "matches"("opponent_id");

-- CreateIndex
CREATE UNIQUE INDEX "games_match_id_match_index_key" ON "games"("match_id", "match_index");

-- AddForeignKey
ALTER TABLE "games" ADD CONSTRAINT "games_match_id_fkey" FOREIGN KEY ("match_id") REFERENCES "matches"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "matches" ADD CONSTRAINT "matches_creator_id_fkey" FOREIGN KEY ("creator_id") REFERENCES "players"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "matches" ADD CONSTRAINT "matches_opponent_id_fkey" FOREIGN KEY ("opponent_id") REFERENCES "players"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Hand-written below this line: Prisma's schema language cannot express these, and `prisma migrate diff`
-- neither creates nor drops CHECK constraints, so they do not show up as drift.

-- Vocabulary as in engine/game/match.ts (MATCH_STATUSES); a match is between two different players.
ALTER TABLE "matches" ADD CONSTRAINT "matches_status_check" CHECK ("status" IN ('open', 'playing', 'ended'));
ALTER TABLE "matches" ADD CONSTRAINT "matches_game_count_check" CHECK ("game_count" >= 1);
ALTER TABLE "matches" ADD CONSTRAINT "matches_players_check" CHECK ("opponent_id" IS NULL OR "opponent_id" <> "creator_id");
-- A game is in a match with its index, or in none with neither.
ALTER TABLE "games" ADD CONSTRAINT "games_match_index_check"
    CHECK (("match_id" IS NULL AND "match_index" IS NULL) OR ("match_id" IS NOT NULL AND "match_index" >= 0));
