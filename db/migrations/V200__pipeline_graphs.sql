-- Pipeline graphs: every version a full, immutable snapshot (JSONB for people and SQL, serialized
-- proto for the engine), exactly one active version per graph and cluster.

-- One row per graph id, never deleted: the monotonic deactivation epoch that fences stale
-- activations, and the highest version ever assigned, so a deleted version number is never reused
-- (a document pinned to a deleted version must stay orphaned, not silently run a newer graph).
CREATE TABLE pipeline_graph_epochs (
    graph_id           TEXT        PRIMARY KEY CHECK (btrim(graph_id) <> ''),
    cluster_id         TEXT        NOT NULL CHECK (btrim(cluster_id) <> ''),
    deactivation_epoch BIGINT      NOT NULL DEFAULT 0 CHECK (deactivation_epoch >= 0),
    last_version       BIGINT      NOT NULL DEFAULT 0 CHECK (last_version >= 0),
    updated_at         TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE pipeline_graphs (
    graph_id                  TEXT        NOT NULL REFERENCES pipeline_graph_epochs (graph_id),
    version                   BIGINT      NOT NULL CHECK (version > 0),
    cluster_id                TEXT        NOT NULL CHECK (btrim(cluster_id) <> ''),
    account_id                TEXT        NOT NULL DEFAULT '',
    name                      TEXT        NOT NULL DEFAULT '',
    graph_json                JSONB       NOT NULL,
    graph_proto               BYTEA       NOT NULL,
    is_active                 BOOLEAN     NOT NULL DEFAULT FALSE,
    state_machine_version_arn TEXT        NOT NULL DEFAULT '',
    created_by                TEXT        NOT NULL DEFAULT '',
    created_at                TIMESTAMPTZ NOT NULL,
    activated_at              TIMESTAMPTZ,
    CONSTRAINT uq_pipeline_graphs_version UNIQUE (graph_id, version)
);

-- Exactly one active version per graph and cluster, enforced by the database itself.
CREATE UNIQUE INDEX uq_pipeline_graphs_one_active
    ON pipeline_graphs (graph_id, cluster_id) WHERE is_active;

CREATE INDEX ix_pipeline_graphs_cluster ON pipeline_graphs (cluster_id, graph_id);

-- Derived from the active version's INTAKE nodes on activation; one datasource may feed many
-- graphs, across accounts.
CREATE TABLE datasource_subscriptions (
    subscription_id TEXT   PRIMARY KEY,
    graph_id        TEXT   NOT NULL,
    version         BIGINT NOT NULL,
    datasource_id   TEXT   NOT NULL CHECK (btrim(datasource_id) <> ''),
    cluster_id      TEXT   NOT NULL,
    account_id      TEXT   NOT NULL DEFAULT '',
    intake_node_id  TEXT   NOT NULL,
    CONSTRAINT fk_subscription_version FOREIGN KEY (graph_id, version)
        REFERENCES pipeline_graphs (graph_id, version) ON DELETE CASCADE,
    CONSTRAINT chk_subscription_id
        CHECK (subscription_id = graph_id || ':' || version::text || ':' || datasource_id)
);

CREATE INDEX ix_datasource_subscriptions_datasource ON datasource_subscriptions (datasource_id);
