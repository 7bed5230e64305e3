-- A scorekeeper's recorded games are in their game list (myGames) even without a seat: the list reads
-- games by scorekeeper_id, so it gets an index like the seats' player_id.

-- CreateIndex
CREATE INDEX "games_scorekeeper_id_idx" ON "games"("scorekeeper_id");
