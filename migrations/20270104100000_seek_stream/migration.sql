-- The seek list as a stream, and seeks for a recorded over-the-board game (issue 33, docs/lobby.md).

-- A seek's pace: `correspondence` (days per move, as before) or `recorded`, a game at a table recorded here
-- (service/recorded-games.ts) with minutes on each player's clock (`clock_minutes`; null: no clock). The pace
-- decides the rating category (engine/rating/categories.ts), so it is stored, not read from the other columns.
ALTER TABLE "seeks" ADD COLUMN "pace" TEXT NOT NULL DEFAULT 'correspondence';
ALTER TABLE "seeks" ADD COLUMN "clock_minutes" INTEGER;
ALTER TABLE "seeks" ALTER COLUMN "days_per_move" DROP NOT NULL;
ALTER TABLE "seeks" ADD CONSTRAINT "seeks_pace_check"
    CHECK (("pace" = 'correspondence' AND "days_per_move" IS NOT NULL AND "clock_minutes" IS NULL)
        OR ("pace" = 'recorded' AND "days_per_move" IS NULL));

-- The public seek stream (`GET /v1/seeks/events`, the `seeks` subscription) reads outbox rows `seek-opened` and
-- `seek-closed`, written in the transaction that opens or closes the seek. They are for everyone: no addressee,
-- no game's or tournament's log. Only those two kinds may be such a row, so a row of any other kind still has
-- exactly one owner (the webhook and notification fan-outs deliver by owner and skip these kinds).
ALTER TABLE "outbox" DROP CONSTRAINT "outbox_log_check";
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_log_check"
    CHECK (("game_id" IS NOT NULL AND "event_seq" IS NOT NULL AND "tournament_id" IS NULL AND "tournament_seq" IS NULL AND "player_id" IS NULL)
        OR ("game_id" IS NULL AND "event_seq" IS NULL AND "tournament_id" IS NOT NULL AND "tournament_seq" IS NOT NULL AND "player_id" IS NULL)
        OR ("game_id" IS NULL AND "event_seq" IS NULL AND "tournament_id" IS NULL AND "tournament_seq" IS NULL AND "player_id" IS NOT NULL)
        OR ("game_id" IS NULL AND "event_seq" IS NULL AND "tournament_id" IS NULL AND "tournament_seq" IS NULL AND "player_id" IS NULL
            AND "kind" IN ('seek-opened', 'seek-closed')));

-- The seek stream reads its two kinds in id order.
CREATE INDEX "outbox_seek_stream_idx" ON "outbox"("id") WHERE "kind" IN ('seek-opened', 'seek-closed');

-- The lobby sweep now writes `expired` on a seek whose expiry passed (until then it reads as expired), so that
-- the sweep's UPDATE … RETURNING names each expired seek once and the stream announces it once.
ALTER TABLE "seeks" DROP CONSTRAINT "seeks_status_check";
ALTER TABLE "seeks" ADD CONSTRAINT "seeks_status_check" CHECK ("status" IN ('open', 'accepted', 'withdrawn', 'expired'));
