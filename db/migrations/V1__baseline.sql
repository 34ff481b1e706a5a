-- Baseline: accounts and their drives. Every later table hangs off an account.
-- Two drives per account, "<accountId>:intake" and "<accountId>:pipeline", each bound to a bucket.

CREATE TABLE accounts (
    account_id  TEXT        PRIMARY KEY CHECK (btrim(account_id) <> '' AND account_id NOT LIKE '%:%'),
    active      BOOLEAN     NOT NULL DEFAULT TRUE,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE drives (
    drive_name      TEXT        PRIMARY KEY,
    account_id      TEXT        NOT NULL REFERENCES accounts (account_id),
    drive_kind      TEXT        NOT NULL CHECK (drive_kind IN ('INTAKE', 'PIPELINE')),
    bucket          TEXT        NOT NULL CHECK (btrim(bucket) <> ''),
    prefix          TEXT        NOT NULL DEFAULT '',
    region          TEXT        NOT NULL CHECK (btrim(region) <> ''),
    credentials_ref TEXT        NOT NULL DEFAULT '',
    provider        TEXT        NOT NULL CHECK (provider IN ('CLIENT', 'PROTOMOLT')),
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- The name is derived, never chosen: "<accountId>:intake" / "<accountId>:pipeline".
    CONSTRAINT chk_drive_name CHECK (drive_name = account_id || ':' || lower(drive_kind)),
    CONSTRAINT uq_drive_per_kind UNIQUE (account_id, drive_kind)
);
