-- Account deletion (issue 32, service/account-deletion.ts): the game and tournament logs are append-only,
-- yet a game's `game-created` event names both players (display name and handle) and a tournament's
-- `player-added` event names its entrant. Erasing a person (GDPR art. 17) must not leave their name readable
-- in the other players' records, while the moves stay (art. 17(3), the other players' legitimate interest,
-- docs/accounts.md). So the append-only triggers let exactly one kind of UPDATE through, and nothing else:
--
-- * only inside a transaction that said whom it erases: `SELECT set_config('arbiter.erasure', '<player id>', true)`
--   (transaction-local: it ends with the transaction);
-- * only for a player already marked deleted (`players.deleted_at`), whose row already carries the pseudonym;
-- * only the names: a `game-created` event's `players[i]` for each seat `i` the erased player holds (seats),
--   which must become exactly `{"name": <the row's display name>, "id": <the row's pseudonymous handle>}`;
--   a tournament event's actor (`by`) who is the erased player, whose `name` must become the pseudonymous
--   handle; a `player-added` event's entrant linked to the erased account, whose `name` must become the
--   pseudonymous handle and whose imported TSH line (`tsh`, which holds the name as typed) goes. Every other
--   byte of the row (ids, seq, type, created_at, the rest of the payload, the other player's entry) must stay.
--
-- DELETE and TRUNCATE stay refused always, as does every other UPDATE (test/store/erasure-trigger.test.ts).

-- Whether an UPDATE of a game_events row is the erasure of the player named by `arbiter.erasure`.
CREATE FUNCTION "game_events_erasure_allowed"(o "game_events", n "game_events") RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
    erased TEXT := NULLIF(current_setting('arbiter.erasure', true), '');
    pseudonym JSONB;
    seat_count INT;
BEGIN
    IF erased IS NULL OR erased !~ '^[0-9a-fA-F-]{36}$' THEN RETURN false; END IF;
    IF o."type" <> 'game-created' OR n."type" IS DISTINCT FROM o."type" OR n."game_id" IS DISTINCT FROM o."game_id"
       OR n."seq" IS DISTINCT FROM o."seq" OR n."created_at" IS DISTINCT FROM o."created_at"
       OR jsonb_typeof(o."payload" -> 'players') <> 'array' OR jsonb_typeof(n."payload" -> 'players') IS DISTINCT FROM 'array'
       OR (n."payload" - 'players') IS DISTINCT FROM (o."payload" - 'players') THEN
        RETURN false;
    END IF;
    seat_count := jsonb_array_length(o."payload" -> 'players');
    IF jsonb_array_length(n."payload" -> 'players') <> seat_count THEN RETURN false; END IF;
    SELECT jsonb_build_object('name', p."display_name", 'id', p."handle") INTO pseudonym
      FROM "players" p WHERE p."id" = erased::uuid AND p."deleted_at" IS NOT NULL;
    IF pseudonym IS NULL THEN RETURN false; END IF;
    FOR i IN 0 .. seat_count - 1 LOOP
        IF EXISTS (SELECT 1 FROM "seats" s WHERE s."game_id" = o."game_id" AND s."seat" = i AND s."player_id" = erased::uuid) THEN
            IF (n."payload" -> 'players' -> i) IS DISTINCT FROM pseudonym THEN RETURN false; END IF;
        ELSIF (n."payload" -> 'players' -> i) IS DISTINCT FROM (o."payload" -> 'players' -> i) THEN
            RETURN false;
        END IF;
    END LOOP;
    RETURN true;
END;
$$;

CREATE OR REPLACE FUNCTION "game_events_append_only"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        IF "game_events_erasure_allowed"(OLD, NEW) THEN RETURN NEW; END IF;
    END IF;
    RAISE EXCEPTION 'game_events is append-only: % is not allowed', TG_OP
        USING ERRCODE = 'P0001', HINT = 'Append a new event instead.';
END;
$$;

-- Whether an UPDATE of a tournament_events row is the erasure of the player named by `arbiter.erasure`:
-- the row concerns them (they acted, `by.playerId`, or it added them, `entrant.playerId`), and the new
-- payload is the old one with exactly those names replaced.
CREATE FUNCTION "tournament_events_erasure_allowed"(o "tournament_events", n "tournament_events") RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
    erased TEXT := NULLIF(current_setting('arbiter.erasure', true), '');
    pseudonym TEXT;
    acted BOOLEAN;
    added BOOLEAN;
    expected JSONB;
BEGIN
    IF erased IS NULL OR erased !~ '^[0-9a-fA-F-]{36}$' THEN RETURN false; END IF;
    IF n."type" IS DISTINCT FROM o."type" OR n."tournament_id" IS DISTINCT FROM o."tournament_id"
       OR n."seq" IS DISTINCT FROM o."seq" OR n."created_at" IS DISTINCT FROM o."created_at"
       OR n."actor_id" IS DISTINCT FROM o."actor_id" THEN
        RETURN false;
    END IF;
    acted := lower(o."payload" -> 'by' ->> 'playerId') IS NOT DISTINCT FROM lower(erased);
    added := o."type" = 'player-added' AND lower(o."payload" -> 'entrant' ->> 'playerId') IS NOT DISTINCT FROM lower(erased);
    IF NOT acted AND NOT added THEN RETURN false; END IF;
    SELECT p."handle" INTO pseudonym FROM "players" p WHERE p."id" = erased::uuid AND p."deleted_at" IS NOT NULL;
    IF pseudonym IS NULL THEN RETURN false; END IF;
    expected := o."payload";
    IF acted THEN expected := jsonb_set(expected, '{by,name}', to_jsonb(pseudonym)); END IF;
    IF added THEN
        expected := jsonb_set(expected, '{entrant}', ((expected -> 'entrant') - 'tsh') || jsonb_build_object('name', pseudonym));
    END IF;
    RETURN n."payload" = expected;
END;
$$;

CREATE OR REPLACE FUNCTION "tournament_events_append_only"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        IF "tournament_events_erasure_allowed"(OLD, NEW) THEN RETURN NEW; END IF;
    END IF;
    RAISE EXCEPTION 'tournament_events is append-only: % is not allowed', TG_OP
        USING ERRCODE = 'P0001', HINT = 'Append a new event instead.';
END;
$$;
