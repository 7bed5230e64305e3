-- A match with an aborted game has no result (engine/game/match.ts MATCH_STATUSES): status 'aborted'.
ALTER TABLE "matches" DROP CONSTRAINT "matches_status_check";
ALTER TABLE "matches" ADD CONSTRAINT "matches_status_check" CHECK ("status" IN ('open', 'playing', 'ended', 'aborted'));
