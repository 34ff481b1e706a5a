-- Document logs (seed 004, ARCHITECTURE "Document Parts"): every work unit's module log is a
-- document whose text is cut into windows as it arrives. One row per log holds its state (the
-- windows fixed at open, the version every conditional write checks, the unsealed tail and the
-- seal); one row per completed window holds that part. Text is stored as UTF-16 code units
-- (bytea, big-endian) because log lines are arbitrary: PostgreSQL text refuses NUL and would
-- replace a lone surrogate, and either would change a part's SHA-256.
CREATE TABLE document_logs (
    collection      TEXT        COLLATE "C" NOT NULL CHECK (btrim(collection) <> ''),
    path            TEXT        COLLATE "C" NOT NULL CHECK (btrim(path) <> ''),
    window_size     INTEGER     NOT NULL CHECK (window_size > 0),
    window_overlap  INTEGER     NOT NULL CHECK (window_overlap >= 0 AND window_overlap < window_size),
    version         BIGINT      NOT NULL,
    next_part_index INTEGER     NOT NULL CHECK (next_part_index >= 0),
    tail_start      BIGINT      NOT NULL CHECK (tail_start >= 0),
    tail_utf16      BYTEA       NOT NULL,
    sealed_length   BIGINT,
    sealed_sha256   TEXT,
    updated_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (collection, path),
    CHECK ((sealed_length IS NULL) = (sealed_sha256 IS NULL))
);

CREATE TABLE document_log_parts (
    collection   TEXT    COLLATE "C" NOT NULL,
    path         TEXT    COLLATE "C" NOT NULL,
    part_index   INTEGER NOT NULL CHECK (part_index >= 0),
    start_offset BIGINT  NOT NULL CHECK (start_offset >= 0),
    text_utf16   BYTEA   NOT NULL,
    sha256       TEXT    NOT NULL,
    PRIMARY KEY (collection, path, part_index)
);

-- The search side (LogPartIndex): a part is upserted here the moment its window completes, so a
-- log is searchable while it is written. words holds the part's distinct words lower-cased
-- (dev.protomolt.core.doclog.LogWords), computed by the writer so every index matches alike.
CREATE TABLE document_log_index (
    collection   TEXT    COLLATE "C" NOT NULL,
    path         TEXT    COLLATE "C" NOT NULL,
    part_index   INTEGER NOT NULL CHECK (part_index >= 0),
    start_offset BIGINT  NOT NULL CHECK (start_offset >= 0),
    text_utf16   BYTEA   NOT NULL,
    words        TEXT[]  NOT NULL,
    PRIMARY KEY (collection, path, part_index)
);

CREATE INDEX ix_document_log_index_words ON document_log_index USING gin (words);
