-- The document store's ledger: one row per stored state of a document ("Postgres is the card
-- catalog, S3 is the stacks"). The row's manifest lists the part objects; the bytes live in the
-- bucket of the drive the row names.

CREATE TABLE pipedocs (
    -- Deterministic name-based UUID over (doc_id, graph_address_id, account_id, graph_id); also the
    -- object key prefix, so a retried save converges on the same row and the same objects.
    node_id          UUID        PRIMARY KEY,
    row_kind         TEXT        NOT NULL CHECK (row_kind IN ('INTAKE', 'PIPELINE')),
    account_id       TEXT        NOT NULL REFERENCES accounts (account_id),
    doc_id           TEXT        NOT NULL CHECK (btrim(doc_id) <> ''),
    graph_id         TEXT        NOT NULL CHECK (btrim(graph_id) <> ''),
    -- The graph node where this copy lives; for intake copies, the datasource id.
    graph_address_id TEXT        NOT NULL CHECK (btrim(graph_address_id) <> ''),
    cluster_id       TEXT        CHECK (cluster_id IS NULL OR btrim(cluster_id) <> ''),
    drive_name       TEXT        NOT NULL REFERENCES drives (drive_name),
    status           TEXT        NOT NULL DEFAULT 'ACTIVE'
                                 CHECK (status IN ('ACTIVE', 'PENDING_PURGE', 'PURGED')),
    -- PipeDocManifest in protobuf's canonical JSON form.
    manifest         JSONB       NOT NULL,
    -- Lower-case hex SHA-256 of the whole serialized document: the intake dedupe key.
    checksum         TEXT        NOT NULL CHECK (checksum ~ '^[0-9a-f]{64}$'),
    size_bytes       BIGINT      NOT NULL CHECK (size_bytes >= 0),
    -- PERSIST (true) or CACHE (false) staging.
    keep             BOOLEAN     NOT NULL DEFAULT FALSE,
    crawl_id         TEXT,
    datasource_id    TEXT,
    graph_version    BIGINT      NOT NULL DEFAULT 0,
    created_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- Intake is the synthetic graph "intake:<accountId>" addressed by datasource, with no cluster;
    -- a pipeline copy never claims the intake graph. Blank or crossed identities cannot be stored.
    CONSTRAINT chk_pipedocs_row_kind CHECK (
        (row_kind = 'INTAKE'
            AND graph_id = 'intake:' || account_id
            AND cluster_id IS NULL
            AND datasource_id IS NOT NULL
            AND graph_address_id = datasource_id)
     OR (row_kind = 'PIPELINE'
            AND graph_id NOT LIKE 'intake:%')),
    -- Intake copies live on the account's intake drive, pipeline copies on its pipeline drive.
    CONSTRAINT chk_pipedocs_drive CHECK (drive_name = account_id || ':' || lower(row_kind))
);

CREATE INDEX ix_pipedocs_account_doc ON pipedocs (account_id, doc_id);
CREATE INDEX ix_pipedocs_crawl ON pipedocs (account_id, crawl_id) WHERE crawl_id IS NOT NULL;
CREATE INDEX ix_pipedocs_datasource ON pipedocs (account_id, datasource_id) WHERE datasource_id IS NOT NULL;
CREATE INDEX ix_pipedocs_updated ON pipedocs (account_id, updated_at);
