-- E-mail notifications (issue 31, docs/notifications.md#e-mail): one address per player. It is
-- `unverified` until the signed link of the verification mail is confirmed, `verified` after, `bounced`
-- once a receiving server refused it for good (a 5xx on RCPT); only a verified address is mailed.
-- `nonce` changes with each new address and each verification mail, so an older link no longer verifies.
CREATE TABLE "player_emails" (
    "player_id" UUID NOT NULL,
    "address" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'unverified',
    "nonce" TEXT NOT NULL,
    "verification_sent_at" TIMESTAMPTZ(3),
    "verified_at" TIMESTAMPTZ(3),
    "bounced_at" TIMESTAMPTZ(3),
    "bounce_reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "player_emails_pkey" PRIMARY KEY ("player_id"),
    CONSTRAINT "player_emails_state_check" CHECK ("state" IN ('unverified', 'verified', 'bounced')),
    -- RFC 5321 caps a path at 256 octets, the address within it at 254.
    CONSTRAINT "player_emails_address_check" CHECK (char_length("address") BETWEEN 3 AND 254)
);

ALTER TABLE "player_emails" ADD CONSTRAINT "player_emails_player_id_fkey"
    FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;
