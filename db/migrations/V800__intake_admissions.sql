-- What admission did with each intake: one row per (document, graph) it was admitted to, and one
-- row with graph_id '' when the datasource was bound to no graph, so an unbound intake is a
-- recorded outcome rather than a silent acknowledgement. A repeated notification updates the row.
CREATE TABLE intake_admissions (
    account_id     TEXT        NOT NULL CHECK (btrim(account_id) <> ''),
    datasource_id  TEXT        NOT NULL CHECK (btrim(datasource_id) <> ''),
    doc_id         TEXT        NOT NULL CHECK (btrim(doc_id) <> ''),
    graph_id       TEXT        NOT NULL,
    graph_version  BIGINT      NOT NULL CHECK (graph_version >= 0),
    outcome        TEXT        NOT NULL CHECK (outcome IN ('STARTED', 'CONVERGED', 'UNBOUND', 'UNDEPLOYED')),
    execution_name TEXT        NOT NULL DEFAULT '',
    execution_arn  TEXT        NOT NULL DEFAULT '',
    detail         TEXT        NOT NULL DEFAULT '',
    recorded_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id, datasource_id, doc_id, graph_id, graph_version)
);
