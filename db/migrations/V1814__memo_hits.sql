-- Hops answered from a memo instead of their module (decisions 1812, 1816), counted per module id:
-- what `protomolt status` shows as memoized. Kept apart from hop_memos, whose rows are replaced and
-- forgotten, so a count survives the memo it came from.
CREATE TABLE memo_hits (
    module_id   TEXT        PRIMARY KEY,
    hits        BIGINT      NOT NULL,
    last_hit_at TIMESTAMPTZ NOT NULL
);
