-- Grants of a datasource to another account's graphs (decision 1620). A row is never deleted: a
-- revoke stamps revoked_at and revoked_by, so the table is also the audit trail of who granted
-- what to whom and who took it back. At most one live grant per (datasource, grantee).
CREATE TABLE datasource_grants (
    grant_id           BIGSERIAL   PRIMARY KEY,
    datasource_id      TEXT        NOT NULL REFERENCES datasource_bindings (datasource_id),
    grantee_account_id TEXT        NOT NULL CHECK (btrim(grantee_account_id) <> ''),
    granted_by         TEXT        NOT NULL CHECK (btrim(granted_by) <> ''),
    granted_at         TIMESTAMPTZ NOT NULL,
    reason             TEXT        NOT NULL DEFAULT '',
    revoked_by         TEXT,
    revoked_at         TIMESTAMPTZ,
    CHECK ((revoked_at IS NULL) = (revoked_by IS NULL))
);

CREATE UNIQUE INDEX ux_datasource_grants_live
    ON datasource_grants (datasource_id, grantee_account_id) WHERE revoked_at IS NULL;
