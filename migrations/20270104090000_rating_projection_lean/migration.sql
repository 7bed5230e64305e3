-- The rating projections, leaner to write (issue 33 item 6: a rating update adds at most 10% to a game's
-- last turn; docs/rated-play.md "Cost of the update"). A rated game's end writes both tables in its commit
-- statement, so every index entry and foreign-key check here is paid by that turn.

-- No foreign keys: the tables are projections of the games' `rating-changed` events (the log is the
-- truth), written only by the statement that appends those events. Their keys are checked there already:
-- the game row is the one the statement moves on, and its players are its seats. No cascade was relied on:
-- an account's deletion keeps the player row (pseudonymized, service/account-deletion.ts), and games are
-- never deleted. Each check cost a lookup and a share lock on the players' and the game's rows.
ALTER TABLE "player_ratings" DROP CONSTRAINT "player_ratings_player_id_fkey";
ALTER TABLE "rating_changes" DROP CONSTRAINT "rating_changes_player_id_fkey";
ALTER TABLE "rating_changes" DROP CONSTRAINT "rating_changes_game_id_fkey";

-- One key instead of a surrogate id, a unique index and a game index: (game_id, player_id) is unique as
-- (player_id, game_id) was, and serves the reads by game (a recompute's ratedAtOf) and a player's recent
-- games (player and game ids). Nothing read the id; orders that broke ties on it now break them on game_id.
ALTER TABLE "rating_changes" DROP CONSTRAINT "rating_changes_pkey";
DROP INDEX "rating_changes_player_id_game_id_key";
DROP INDEX "rating_changes_game_id_idx";
ALTER TABLE "rating_changes" DROP COLUMN "id";
ALTER TABLE "rating_changes" ADD CONSTRAINT "rating_changes_pkey" PRIMARY KEY ("game_id", "player_id");
