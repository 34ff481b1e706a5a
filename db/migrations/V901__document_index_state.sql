-- The indexing ledger: which documents reached which indices, answered from Postgres and never
-- from OpenSearch. A receipt moves a row only when its ULID attempt id is greater than the last
-- one applied, so stale and duplicated receipts change nothing.
CREATE TABLE document_index_state (
    account_id      TEXT        NOT NULL CHECK (btrim(account_id) <> ''),
    doc_id          TEXT        NOT NULL CHECK (btrim(doc_id) <> ''),
    plan_id         TEXT        NOT NULL CHECK (btrim(plan_id) <> ''),
    index_name      TEXT        NOT NULL CHECK (btrim(index_name) <> ''),
    outcome         TEXT        NOT NULL
                                CHECK (outcome IN ('INDEXED', 'FAILED_RETRYABLE',
                                                   'FAILED_TERMINAL', 'SKIPPED')),
    -- ULID (26 Crockford base-32 characters, upper case): byte order is time order, so the column
    -- compares in the "C" collation whatever the database default is.
    last_attempt_id TEXT        COLLATE "C" NOT NULL CHECK (last_attempt_id ~ '^[0-9A-HJKMNP-TV-Z]{26}$'),
    graph_id        TEXT,
    graph_version   BIGINT      NOT NULL DEFAULT 0,
    node_id         UUID,
    indexed_at      TIMESTAMPTZ,
    error_message   TEXT,
    updated_at      TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id, doc_id, plan_id, index_name)
);

CREATE INDEX ix_document_index_state_doc ON document_index_state (account_id, doc_id, outcome);

-- The parsers that produced what was indexed, in chain order, for the latest applied attempt.
CREATE TABLE document_index_parsers (
    account_id     TEXT    NOT NULL,
    doc_id         TEXT    NOT NULL,
    plan_id        TEXT    NOT NULL,
    index_name     TEXT    NOT NULL,
    position       INT     NOT NULL CHECK (position >= 0),
    parser_name    TEXT    NOT NULL,
    parser_version TEXT    NOT NULL,
    node_id        TEXT    NOT NULL,
    PRIMARY KEY (account_id, doc_id, plan_id, index_name, position),
    FOREIGN KEY (account_id, doc_id, plan_id, index_name)
        REFERENCES document_index_state ON DELETE CASCADE
);

-- One row per vector set (chunker x embedder result) indexed by the latest applied attempt.
CREATE TABLE document_index_vector_sets (
    account_id          TEXT    NOT NULL,
    doc_id              TEXT    NOT NULL,
    plan_id             TEXT    NOT NULL,
    index_name          TEXT    NOT NULL,
    result_id           TEXT    NOT NULL CHECK (btrim(result_id) <> ''),
    chunk_config_id     TEXT    NOT NULL,
    embedding_config_id TEXT    NOT NULL,
    dimensions          INT     NOT NULL CHECK (dimensions >= 0),
    vector_count        INT     NOT NULL CHECK (vector_count >= 0),
    PRIMARY KEY (account_id, doc_id, plan_id, index_name, result_id),
    FOREIGN KEY (account_id, doc_id, plan_id, index_name)
        REFERENCES document_index_state ON DELETE CASCADE
);
