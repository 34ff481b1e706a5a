-- Dead letters an operator tried to reprocess past their node's cap (dlq_config.max_reprocess_count,
-- 3 when unset) are quarantined here instead of being run again: the message stays on its DLQ topic
-- (Kafka keeps it for the topic's retention), and this row says it must not be re-driven, why, and
-- where it is, so `protomolt dlq list` shows it as quarantined and a later reprocess skips it.
CREATE TABLE dlq_quarantine (
    dlq_id          TEXT        PRIMARY KEY,
    account_id      TEXT        NOT NULL,
    graph_id        TEXT        NOT NULL,
    node_id         TEXT        NOT NULL,
    topic           TEXT        NOT NULL,
    kafka_partition INT         NOT NULL,
    kafka_offset    BIGINT      NOT NULL,
    reprocess_count INT         NOT NULL,
    reason          TEXT        NOT NULL,
    quarantined_at  TIMESTAMPTZ NOT NULL
);

CREATE INDEX ix_dlq_quarantine_graph ON dlq_quarantine (account_id, graph_id);
