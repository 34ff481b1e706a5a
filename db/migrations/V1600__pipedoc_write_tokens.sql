-- Concurrent saves at one address (decision 1600). Every save takes a write token before it writes
-- any object; the token names the save's objects (<nodeId>/w<token hex>/...) so no two saves share
-- a key, and it orders the saves: the row is replaced only by a save holding a larger token.
CREATE SEQUENCE pipedoc_write_tokens AS BIGINT START WITH 1;

-- The token of the stored state; 0 for states stored before tokens existed (any save beats them).
ALTER TABLE pipedocs ADD COLUMN write_token BIGINT NOT NULL DEFAULT 0 CHECK (write_token >= 0);

-- Stored states that lost their address: the state a newer save replaced, or the state of a save
-- that committed after a newer one had already landed. Written in the commit's own transaction;
-- the reconciler deletes the objects once the grace period (its minimum age) has passed, records a
-- pipedoc_purges proof row and removes the entry (decision 1601).
CREATE TABLE pipedoc_superseded (
    superseded_id    UUID        PRIMARY KEY,
    node_id          UUID        NOT NULL,
    row_kind         TEXT        NOT NULL,
    account_id       TEXT        NOT NULL,
    doc_id           TEXT        NOT NULL,
    graph_id         TEXT        NOT NULL,
    graph_address_id TEXT        NOT NULL,
    drive_name       TEXT        NOT NULL,
    -- REPLACED (a newer save took the address) or LOST_RACE (a newer save was already there).
    reason           TEXT        NOT NULL CHECK (reason IN ('REPLACED', 'LOST_RACE')),
    write_token      BIGINT      NOT NULL,
    superseded_by    BIGINT      NOT NULL,
    checksum         TEXT        NOT NULL,
    size_bytes       BIGINT      NOT NULL,
    -- The superseded PipeDocManifest: its object keys are what the reconciler deletes.
    manifest         JSONB       NOT NULL,
    row_created_at   TIMESTAMPTZ NOT NULL,
    superseded_at    TIMESTAMPTZ NOT NULL
);

CREATE INDEX ix_pipedoc_superseded_due ON pipedoc_superseded (drive_name, superseded_at);
-- The reconciler counts a superseded state's objects as owned until they are reclaimed.
CREATE INDEX ix_pipedoc_superseded_node ON pipedoc_superseded (node_id);
