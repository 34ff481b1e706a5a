-- The purge proof ledger: one row per hard delete of a stored state, written in the same
-- transaction that finalizes the pipedocs row. node_id is deterministic and so recurs over time
-- (a document stored, purged and stored again); purge_id, minted by the application, keeps every
-- purge of an identity rather than only the latest.
CREATE TABLE pipedoc_purges (
    purge_id         UUID        PRIMARY KEY,
    purge_event_id   TEXT        NOT NULL CHECK (btrim(purge_event_id) <> ''),
    node_id          UUID        NOT NULL,
    row_kind         TEXT        NOT NULL,
    account_id       TEXT        NOT NULL,
    doc_id           TEXT        NOT NULL,
    graph_id         TEXT        NOT NULL,
    graph_address_id TEXT        NOT NULL,
    drive_name       TEXT        NOT NULL,
    bucket           TEXT        NOT NULL,
    reason           TEXT        NOT NULL,
    -- The manifest checksum and total size of what was deleted.
    checksum         TEXT        NOT NULL,
    size_bytes       BIGINT      NOT NULL,
    -- Per object: part, sub key, object key, sha256 and size (never the bytes).
    manifest_summary JSONB       NOT NULL,
    row_created_at   TIMESTAMPTZ NOT NULL,
    tombstoned_at    TIMESTAMPTZ NOT NULL,
    purged_at        TIMESTAMPTZ NOT NULL
);

CREATE INDEX ix_pipedoc_purges_node ON pipedoc_purges (node_id, purged_at);
CREATE INDEX ix_pipedoc_purges_account_doc ON pipedoc_purges (account_id, doc_id);

-- Append-only: an audit ledger that could be edited would prove nothing.
CREATE FUNCTION pipedoc_purges_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'pipedoc_purges is append-only: % is refused', TG_OP;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER trg_pipedoc_purges_append_only
    BEFORE UPDATE OR DELETE ON pipedoc_purges
    FOR EACH ROW EXECUTE FUNCTION pipedoc_purges_append_only();
