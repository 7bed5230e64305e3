-- Directors (issue 14, item 4): a player's role. A director rules on disputes left open for one (and on
-- appeals); an admin grants and revokes director. Admins are made from the command line
-- (`arbiter director grant <handle> --admin`), never through the API.

-- AlterTable
ALTER TABLE "players" ADD COLUMN "role" TEXT NOT NULL DEFAULT 'player';
ALTER TABLE "players" ADD CONSTRAINT "players_role_check" CHECK ("role" IN ('player', 'director', 'admin'));
