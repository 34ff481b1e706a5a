-- The wrapped (KMS-encrypted) data keys of right-to-be-forgotten documents (decision 1750). A row
-- lives while its document's walk runs; deleting it is destroying the key, after which the sealed
-- body in execution history can never be opened. Never the plaintext key.
CREATE TABLE rtbf_data_keys (
    key_id      TEXT        PRIMARY KEY CHECK (btrim(key_id) <> ''),
    kms_key_arn TEXT        NOT NULL,
    wrapped_key BYTEA       NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
