-- The memo index (decisions 1812, 1813): per document and node of a graph, the newest output a
-- module produced and the key it was produced under. A hop whose key digest (input checksum,
-- module id, module version, config hash) equals the row's reuses output_ref instead of calling
-- the module, but only while output_ref still names an ACTIVE stored state whose checksum is
-- output_checksum: a purged or replaced output is a miss, and the row is forgotten.
CREATE TABLE hop_memos (
    account_id      TEXT        NOT NULL,
    doc_id          TEXT        NOT NULL,
    graph_id        TEXT        NOT NULL,
    node_id         TEXT        NOT NULL,
    key_digest      TEXT        NOT NULL,
    input_checksum  TEXT        NOT NULL,
    module_id       TEXT        NOT NULL,
    module_version  TEXT        NOT NULL,
    config_hash     TEXT        NOT NULL,
    -- The serialized DocumentReference of the memoized copy at <node_id>.memo.
    output_ref      BYTEA       NOT NULL,
    output_checksum TEXT        NOT NULL,
    recorded_at     TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id, doc_id, graph_id, node_id)
);
