-- Which account owns each datasource. Graph validation refuses an intake node whose datasource
-- belongs to another account, so the owner must outlive a restart of the local platform
-- (decision 0961). A datasource never changes owner: the primary key is the datasource alone.
CREATE TABLE datasource_bindings (
    datasource_id TEXT        PRIMARY KEY CHECK (btrim(datasource_id) <> ''),
    account_id    TEXT        NOT NULL CHECK (btrim(account_id) <> ''),
    bound_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE INDEX ix_datasource_bindings_account ON datasource_bindings (account_id);
