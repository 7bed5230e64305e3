-- Ratings (issue 33, docs/rated-play.md). The truth is each rated game's log: its `rating-changed` event
-- carries both players' ratings before and after. These two tables are projections of those events,
-- written in the transaction that ends the game, so that the leaderboard and a player's page read an index.

-- A player's rating in one category (engine/rating/categories.ts) as of their last rated game.
-- `provisional` is stored (RD at or above the threshold when it was written) so the leaderboard can keep
-- provisional players apart with an index.
CREATE TABLE "player_ratings" (
    "player_id" UUID NOT NULL,
    "category" TEXT NOT NULL,
    "rating" DOUBLE PRECISION NOT NULL,
    "deviation" DOUBLE PRECISION NOT NULL,
    "volatility" DOUBLE PRECISION NOT NULL,
    "games" INTEGER NOT NULL DEFAULT 0,
    "provisional" BOOLEAN NOT NULL,
    "last_rated_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "player_ratings_pkey" PRIMARY KEY ("player_id", "category")
);
-- The leaderboard: one category, established or provisional, best first; `player_id` breaks ties so pages are stable.
CREATE INDEX "player_ratings_leaderboard_idx" ON "player_ratings"("category", "provisional", "rating" DESC, "player_id");
ALTER TABLE "player_ratings" ADD CONSTRAINT "player_ratings_player_id_fkey"
  FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- One player's rating change from one rated game (a player's history and chart). A ruling that changes a
-- result after the fact recomputes the later changes of both players: those rows are replaced.
CREATE TABLE "rating_changes" (
    "id" BIGSERIAL NOT NULL,
    "player_id" UUID NOT NULL,
    "category" TEXT NOT NULL,
    "game_id" UUID NOT NULL,
    "game_seq" INTEGER NOT NULL,
    "opponent_id" UUID,
    "score" DOUBLE PRECISION NOT NULL,
    "rating_before" DOUBLE PRECISION NOT NULL,
    "deviation_before" DOUBLE PRECISION NOT NULL,
    "volatility_before" DOUBLE PRECISION NOT NULL,
    "rating_after" DOUBLE PRECISION NOT NULL,
    "deviation_after" DOUBLE PRECISION NOT NULL,
    "volatility_after" DOUBLE PRECISION NOT NULL,
    "rated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "rating_changes_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "rating_changes_player_id_game_id_key" ON "rating_changes"("player_id", "game_id");
CREATE INDEX "rating_changes_player_id_category_rated_at_idx" ON "rating_changes"("player_id", "category", "rated_at");
CREATE INDEX "rating_changes_game_id_idx" ON "rating_changes"("game_id");
ALTER TABLE "rating_changes" ADD CONSTRAINT "rating_changes_player_id_fkey"
  FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rating_changes" ADD CONSTRAINT "rating_changes_game_id_fkey"
  FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
