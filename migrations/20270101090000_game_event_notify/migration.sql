-- Live streams (docs/live.md): every commit that appends to a game's log wakes the processes that stream
-- it. The trigger sends `pg_notify('arbiter_game_events', '<schema>:<game id>')`; Postgres delivers it at
-- commit (never for a rolled-back turn) and folds identical notifications of one transaction into one, so
-- a turn that appends several events sends one. Listeners re-read the log past what they have sent, so a
-- notification carries no version and a lost one loses no event.
CREATE OR REPLACE FUNCTION "arbiter_notify_game_events"() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('arbiter_game_events', TG_TABLE_SCHEMA || ':' || NEW."game_id"::text);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "game_events_notify"
  AFTER INSERT ON "game_events"
  FOR EACH ROW EXECUTE FUNCTION "arbiter_notify_game_events"();
