-- Accounts a person can manage, OAuth 2.0 for third-party apps (issue 32) and rated games (issue 33).
--
-- A deleted account keeps its row (the other players' games point at it through `seats`): `deleted_at`
-- marks it, its handle becomes a pseudonym and everything personal is erased (service/account-deletion.ts).
-- `profile_hidden`: the player's page and leaderboard entries are shown to nobody but the player.
ALTER TABLE "players" ADD COLUMN "deleted_at" TIMESTAMPTZ(3);
ALTER TABLE "players" ADD COLUMN "profile_hidden" BOOLEAN NOT NULL DEFAULT false;

-- A game is rated or casual from its creation; a rated game's rating category (engine/rating/categories.ts).
ALTER TABLE "games" ADD COLUMN "rated" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "games" ADD COLUMN "rating_category" TEXT;
ALTER TABLE "games" ADD CONSTRAINT "games_rated_category_check" CHECK (NOT "rated" OR "rating_category" IS NOT NULL);

-- One sign-in (a password login) of a player: its tokens carry the session id (`sid`), and a token of a
-- revoked or expired session is refused. `user_agent` is what the player sees as the device.
CREATE TABLE "sessions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "player_id" UUID NOT NULL,
    "user_agent" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "sessions_player_id_created_at_idx" ON "sessions"("player_id", "created_at");
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_player_id_fkey"
  FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A third-party app registered by a player (docs/apps.md): its id is the OAuth `client_id`. A public
-- client (browser, mobile) has no secret; a confidential one's secret is kept in clear because the
-- authorization server compares it on every token request, as webhook secrets are kept (shown once).
CREATE TABLE "oauth_apps" (
    "id" TEXT NOT NULL,
    "owner_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "redirect_uris" TEXT[] NOT NULL,
    "icon_url" TEXT,
    "client_type" TEXT NOT NULL,
    "secret" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "oauth_apps_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "oauth_apps_client_type_check" CHECK ("client_type" IN ('public', 'confidential')),
    CONSTRAINT "oauth_apps_secret_check" CHECK (("client_type" = 'public') = ("secret" IS NULL))
);
CREATE INDEX "oauth_apps_owner_id_idx" ON "oauth_apps"("owner_id");
ALTER TABLE "oauth_apps" ADD CONSTRAINT "oauth_apps_owner_id_fkey"
  FOREIGN KEY ("owner_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The authorization server's own records (oidc-provider's adapter, store/oauth-adapter.ts): grants,
-- authorization codes, access and refresh tokens, interactions and sessions, one row per (model, id),
-- with the columns the adapter looks rows up by. `account_id` is the player a record acts for.
CREATE TABLE "oauth_records" (
    "model" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "grant_id" TEXT,
    "uid" TEXT,
    "user_code" TEXT,
    "account_id" UUID,
    "client_id" TEXT,
    "expires_at" TIMESTAMPTZ(3),
    "consumed_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_records_pkey" PRIMARY KEY ("model", "id")
);
CREATE INDEX "oauth_records_grant_id_idx" ON "oauth_records"("grant_id");
CREATE INDEX "oauth_records_uid_idx" ON "oauth_records"("uid");
CREATE INDEX "oauth_records_account_id_model_idx" ON "oauth_records"("account_id", "model");
CREATE INDEX "oauth_records_expires_at_idx" ON "oauth_records"("expires_at");
ALTER TABLE "oauth_records" ADD CONSTRAINT "oauth_records_account_id_fkey"
  FOREIGN KEY ("account_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;
