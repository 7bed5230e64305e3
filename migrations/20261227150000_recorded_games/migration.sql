-- Over-the-board games recorded live (issue 14 item 1): the scorekeeper who enters the moves. Null for
-- played and imported games; set only for a recorded game, and only its scorekeeper may record moves.

-- AlterTable
ALTER TABLE "games" ADD COLUMN "scorekeeper_id" UUID;
