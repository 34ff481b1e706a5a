-- Annotations on one part of a document log (seed 004): a person's note, an agent's label
-- (root-cause, flake, noise, ...) or a finding. The kinds are rows, not code: adding a kind is one
-- more row in document_log_annotation_kinds, saying how its body is checked ('text': any non-blank
-- text; 'label': a lower-case name of letters, digits and '-'). Existing rows are untouched.
CREATE TABLE document_log_annotation_kinds (
    kind      TEXT COLLATE "C" PRIMARY KEY CHECK (kind ~ '^[a-z][a-z0-9-]*$'),
    body_rule TEXT NOT NULL CHECK (body_rule IN ('text', 'label'))
);

INSERT INTO document_log_annotation_kinds (kind, body_rule) VALUES
    ('note', 'text'),
    ('label', 'label'),
    ('finding', 'text');

-- An annotation belongs to a written part: the foreign key refuses one on a part that does not
-- exist and removes a log's annotations with its parts. A span, when given, lies inside the part.
CREATE TABLE document_log_annotations (
    id          UUID        PRIMARY KEY,
    collection  TEXT        COLLATE "C" NOT NULL,
    path        TEXT        COLLATE "C" NOT NULL,
    part_index  INTEGER     NOT NULL,
    kind        TEXT        COLLATE "C" NOT NULL REFERENCES document_log_annotation_kinds (kind),
    author      TEXT        NOT NULL CHECK (btrim(author) <> ''),
    body        TEXT        NOT NULL CHECK (btrim(body) <> ''),
    span_start  INTEGER,
    span_end    INTEGER,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    FOREIGN KEY (collection, path, part_index)
        REFERENCES document_log_parts (collection, path, part_index) ON DELETE CASCADE,
    CHECK ((span_start IS NULL) = (span_end IS NULL)),
    CHECK (span_start IS NULL OR (span_start >= 0 AND span_end > span_start))
);

CREATE INDEX ix_document_log_annotations_part
    ON document_log_annotations (collection, path, part_index, created_at);
