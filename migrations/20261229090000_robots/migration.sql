-- Issue 19: a game option that opens analysis of the live game to the player against a robot.
-- Robot players themselves need no migration: they are rows of "players" made on first use.
ALTER TABLE "games" ADD COLUMN "allow_hints" BOOLEAN NOT NULL DEFAULT false;
