-- Issue 21: an uploaded word list also gets its move-generation graph (engine/lexicon/kwg-build.ts over the
-- tile set it was uploaded with), so robots and analysis can play it as they play the server's own lists.
-- Nullable: editions stored before this migration have none (robots answer ROBOT_UNAVAILABLE for them).

-- AlterTable
ALTER TABLE "lexicon_uploads" ADD COLUMN "kwg" BYTEA;
