-- The replay state machine's audit trail (decision 1702). One row per replay run, keyed by the
-- ARN of the run's first execution (continuations of the same run share it), and one row per page
-- it read. Rows are upserted by the page that writes them, so a retried page converges.
CREATE TABLE replay_runs (
    run_arn          TEXT        PRIMARY KEY CHECK (btrim(run_arn) <> ''),
    replay_id        TEXT        NOT NULL CHECK (btrim(replay_id) <> ''),
    requested_by     TEXT        NOT NULL CHECK (btrim(requested_by) <> ''),
    account_id       TEXT        NOT NULL,
    graph_id         TEXT        NOT NULL,
    graph_version    BIGINT      NOT NULL CHECK (graph_version > 0),
    target_node      TEXT        NOT NULL,
    dry_run          BOOLEAN     NOT NULL,
    selectors        JSONB       NOT NULL,
    candidates_total BIGINT      NOT NULL CHECK (candidates_total >= 0),
    status           TEXT        NOT NULL CHECK (status IN ('RUNNING', 'SUCCEEDED')),
    started_at       TIMESTAMPTZ NOT NULL,
    finished_at      TIMESTAMPTZ,
    pages            BIGINT      NOT NULL DEFAULT 0,
    candidates       BIGINT      NOT NULL DEFAULT 0,
    counts           JSONB       NOT NULL DEFAULT '{}'::jsonb
);

CREATE INDEX ix_replay_runs_replay ON replay_runs (replay_id, started_at);

CREATE TABLE replay_pages (
    run_arn       TEXT        NOT NULL REFERENCES replay_runs (run_arn),
    page_number   BIGINT      NOT NULL CHECK (page_number > 0),
    execution_arn TEXT        NOT NULL,
    cursor_after  TEXT        NOT NULL,
    cursor_next   TEXT        NOT NULL,
    candidates    INTEGER     NOT NULL CHECK (candidates >= 0),
    counts        JSONB       NOT NULL,
    read_at       TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (run_arn, page_number)
);

-- Keyset paging of replay candidates reads (updated_at, node_id) after a cursor, per account.
CREATE INDEX ix_pipedocs_replay_keyset ON pipedocs (account_id, updated_at, node_id)
    WHERE status = 'ACTIVE';
