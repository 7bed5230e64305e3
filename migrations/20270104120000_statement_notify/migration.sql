-- The wake-up notifications of the game log and the outbox, once per statement instead of once per row.
-- A turn appends its events and outbox messages in one statement (store/turn-statements.ts), and every row
-- sent the same notification (the channel's payload names the game, or only the schema), which Postgres
-- folds into one at commit anyway; each row still paid its own trigger call. A statement that inserts
-- nothing (the turn's CTEs when the game row did not match) sends nothing.

CREATE OR REPLACE FUNCTION "arbiter_notify_game_events"() RETURNS trigger AS $$
DECLARE
  game uuid;
BEGIN
  FOR game IN SELECT DISTINCT "game_id" FROM inserted LOOP
    PERFORM pg_notify('arbiter_game_events', TG_TABLE_SCHEMA || ':' || game::text);
  END LOOP;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

DROP TRIGGER "game_events_notify" ON "game_events";
CREATE TRIGGER "game_events_notify"
  AFTER INSERT ON "game_events"
  REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION "arbiter_notify_game_events"();

CREATE OR REPLACE FUNCTION "arbiter_notify_outbox"() RETURNS trigger AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM inserted) THEN
    PERFORM pg_notify('arbiter_outbox', TG_TABLE_SCHEMA);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

DROP TRIGGER "outbox_notify" ON "outbox";
CREATE TRIGGER "outbox_notify"
  AFTER INSERT ON "outbox"
  REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION "arbiter_notify_outbox"();
