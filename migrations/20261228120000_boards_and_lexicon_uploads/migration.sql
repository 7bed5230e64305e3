-- Issue 21: boards given as data are hashed and the hash kept on the game (the rows travel in its game-created
-- event); uploaded word lists are kept in the database, compiled, because a Lambda has no lasting disk.

-- AlterTable
ALTER TABLE "games" ADD COLUMN "layout_hash" TEXT;

-- CreateTable
CREATE TABLE "lexicon_uploads" (
    "name" TEXT NOT NULL,
    "content_hash" TEXT NOT NULL,
    "distribution" TEXT NOT NULL,
    "dawg" BYTEA NOT NULL,
    "unspellable" INTEGER NOT NULL,
    "uploaded_by" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "lexicon_uploads_pkey" PRIMARY KEY ("name","content_hash")
);

-- CreateIndex
CREATE INDEX "lexicon_uploads_name_created_at_idx" ON "lexicon_uploads"("name", "created_at");

-- AddForeignKey
ALTER TABLE "lexicon_uploads" ADD CONSTRAINT "lexicon_uploads_name_content_hash_fkey" FOREIGN KEY ("name", "content_hash") REFERENCES "lexicons"("name", "content_hash") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "lexicon_uploads" ADD CONSTRAINT "lexicon_uploads_uploaded_by_fkey" FOREIGN KEY ("uploaded_by") REFERENCES "players"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Hand-written: a custom layout's hash, as engine/layout.ts writes it.
ALTER TABLE "games" ADD CONSTRAINT "games_layout_hash_check" CHECK ("layout_hash" IS NULL OR "layout_hash" ~ '^sha256:[0-9a-f]{64}$');
ALTER TABLE "lexicon_uploads" ADD CONSTRAINT "lexicon_uploads_unspellable_check" CHECK ("unspellable" >= 0);
