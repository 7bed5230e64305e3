-- Issue 14, item 4: directors per club or event. An admin makes an organization (a club or an event) and
-- grants players the director role in it; a game may be placed under one when it is created, and a director
-- of that organization may then rule on the game's disputes. The global role (players.role) stays as it was.
CREATE TABLE "organizations" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "kind" TEXT NOT NULL,
  "name" TEXT NOT NULL,
  "created_by" UUID,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "organizations_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "organizations_kind_check" CHECK ("kind" IN ('club', 'event')),
  CONSTRAINT "organizations_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "players"("id") ON DELETE SET NULL ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "organizations_kind_name_key" ON "organizations"("kind", "name");

CREATE TABLE "organization_directors" (
  "organization_id" UUID NOT NULL,
  "player_id" UUID NOT NULL,
  "granted_by" UUID,
  "granted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "organization_directors_pkey" PRIMARY KEY ("organization_id", "player_id"),
  CONSTRAINT "organization_directors_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "organization_directors_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "organization_directors_granted_by_fkey" FOREIGN KEY ("granted_by") REFERENCES "players"("id") ON DELETE SET NULL ON UPDATE CASCADE
);
CREATE INDEX "organization_directors_player_id_idx" ON "organization_directors"("player_id");

ALTER TABLE "games" ADD COLUMN "organization_id" UUID;
ALTER TABLE "games" ADD CONSTRAINT "games_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
CREATE INDEX "games_organization_id_idx" ON "games"("organization_id");
