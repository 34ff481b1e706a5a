-- The index-plan registry sink modules declare into (decision 1621). PRODUCTION graph validation
-- refuses a sink naming a plan that is not here or that another module declared. A plan id belongs
-- to the module that first declared it; that module may re-declare it to refresh the rest.
CREATE TABLE index_plans (
    plan_id           TEXT        PRIMARY KEY CHECK (btrim(plan_id) <> ''),
    module_id         TEXT        NOT NULL CHECK (btrim(module_id) <> ''),
    index_name        TEXT        NOT NULL CHECK (btrim(index_name) <> ''),
    description       TEXT        NOT NULL DEFAULT '',
    vector_dimensions INTEGER     NOT NULL DEFAULT 0 CHECK (vector_dimensions >= 0),
    declared_at       TIMESTAMPTZ NOT NULL
);

CREATE INDEX ix_index_plans_module ON index_plans (module_id);
