-- Per-client limits (issue 15): token buckets keyed by (action, subject kind, subject id), and failed-login
-- counts per handle and per client address for the login back-off. Shared by every Lambda through the database.

-- CreateTable
CREATE TABLE "rate_limit_buckets" (
    "action" TEXT NOT NULL,
    "subject_kind" TEXT NOT NULL,
    "subject_id" TEXT NOT NULL,
    "tokens" DOUBLE PRECISION NOT NULL,
    "refilled_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "rate_limit_buckets_pkey" PRIMARY KEY ("action","subject_kind","subject_id")
);

-- CreateTable
CREATE TABLE "login_failures" (
    "subject_kind" TEXT NOT NULL,
    "subject_id" TEXT NOT NULL,
    "failures" INTEGER NOT NULL,
    "last_failure_at" TIMESTAMPTZ(3) NOT NULL,
    "locked_until" TIMESTAMPTZ(3),

    CONSTRAINT "login_failures_pkey" PRIMARY KEY ("subject_kind","subject_id")
);

-- CreateIndex
CREATE INDEX "rate_limit_buckets_refilled_at_idx" ON "rate_limit_buckets"("refilled_at");

-- CreateIndex
CREATE INDEX "login_failures_last_failure_at_idx" ON "login_failures"("last_failure_at");

-- Hand-written: the subject kinds the code knows (service/rate-limits.ts).
ALTER TABLE "rate_limit_buckets" ADD CONSTRAINT "rate_limit_buckets_subject_kind_check" CHECK ("subject_kind" IN ('address', 'player', 'apiKey'));
ALTER TABLE "login_failures" ADD CONSTRAINT "login_failures_subject_kind_check" CHECK ("subject_kind" IN ('handle', 'address'));
ALTER TABLE "login_failures" ADD CONSTRAINT "login_failures_failures_check" CHECK ("failures" >= 0);
