-- The local Step Functions runtime (localstack module) keeps everything an execution needs to
-- resume after a restart here: definitions, published versions, aliases, executions with their
-- last checkpoint, the execution history and the task tokens a callback task is waiting on.
-- Production never touches these tables; AWS Step Functions holds the same state in the cloud, so
-- they are not in db/migrations: only the local runtime applies this folder (LocalSfnSchema, its
-- own history table). IF NOT EXISTS: a data folder made before the move already has them.

CREATE TABLE IF NOT EXISTS sfn_state_machines (
    arn          TEXT        PRIMARY KEY,
    name         TEXT        NOT NULL UNIQUE,
    definition   TEXT        NOT NULL,
    role_arn     TEXT        NOT NULL,
    type         TEXT        NOT NULL CHECK (type IN ('STANDARD')),
    description  TEXT,
    revision_id  TEXT        NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL,
    updated_at   TIMESTAMPTZ NOT NULL
);

CREATE TABLE IF NOT EXISTS sfn_versions (
    arn               TEXT        PRIMARY KEY,
    state_machine_arn TEXT        NOT NULL REFERENCES sfn_state_machines (arn),
    version           INT         NOT NULL CHECK (version > 0),
    definition        TEXT        NOT NULL,
    role_arn          TEXT        NOT NULL,
    revision_id       TEXT        NOT NULL,
    description       TEXT,
    created_at        TIMESTAMPTZ NOT NULL,
    CONSTRAINT uq_sfn_version UNIQUE (state_machine_arn, version)
);

CREATE TABLE IF NOT EXISTS sfn_aliases (
    arn               TEXT        PRIMARY KEY,
    state_machine_arn TEXT        NOT NULL REFERENCES sfn_state_machines (arn),
    name              TEXT        NOT NULL,
    description       TEXT,
    -- JSON array of {"stateMachineVersionArn": ..., "weight": ...}, as the API carries it.
    routing           TEXT        NOT NULL,
    created_at        TIMESTAMPTZ NOT NULL,
    updated_at        TIMESTAMPTZ NOT NULL,
    CONSTRAINT uq_sfn_alias UNIQUE (state_machine_arn, name)
);

CREATE TABLE IF NOT EXISTS sfn_executions (
    arn                  TEXT        PRIMARY KEY,
    state_machine_arn    TEXT        NOT NULL REFERENCES sfn_state_machines (arn),
    version_arn          TEXT,
    alias_arn            TEXT,
    name                 TEXT        NOT NULL,
    -- The definition the execution started with; updates to the state machine never change it.
    definition           TEXT        NOT NULL,
    role_arn             TEXT        NOT NULL,
    input                TEXT        NOT NULL,
    status               TEXT        NOT NULL
        CHECK (status IN ('RUNNING', 'SUCCEEDED', 'FAILED', 'TIMED_OUT', 'ABORTED')),
    output               TEXT,
    error                TEXT,
    cause                TEXT,
    started_at           TIMESTAMPTZ NOT NULL,
    stopped_at           TIMESTAMPTZ,
    parent_execution_arn TEXT,
    -- Checkpoint: the top-level state being run, its raw input and its retry counters. A restart
    -- re-enters this state with this input (see docs/decisions/0451-local-sfn-durability.md).
    current_state        TEXT,
    state_input          TEXT,
    retry_counts         TEXT,
    -- When a retry wait is in progress: the instant the next attempt is due.
    retry_at             TIMESTAMPTZ,
    pending_token        TEXT,
    CONSTRAINT uq_sfn_execution_name UNIQUE (state_machine_arn, name)
);

CREATE INDEX IF NOT EXISTS ix_sfn_executions_running ON sfn_executions (status) WHERE status = 'RUNNING';

CREATE TABLE IF NOT EXISTS sfn_history (
    execution_arn     TEXT        NOT NULL REFERENCES sfn_executions (arn),
    event_id          BIGINT      NOT NULL,
    previous_event_id BIGINT      NOT NULL,
    type              TEXT        NOT NULL,
    occurred_at       TIMESTAMPTZ NOT NULL,
    -- The event's details object exactly as GetExecutionHistory returns it, keyed by its field name.
    details           TEXT,
    PRIMARY KEY (execution_arn, event_id)
);

CREATE TABLE IF NOT EXISTS sfn_task_tokens (
    token              TEXT        PRIMARY KEY,
    execution_arn      TEXT        NOT NULL REFERENCES sfn_executions (arn),
    state_name         TEXT        NOT NULL,
    status             TEXT        NOT NULL
        CHECK (status IN ('WAITING', 'SUCCEEDED', 'FAILED', 'TIMED_OUT', 'CLOSED')),
    heartbeat_seconds  INT,
    heartbeat_deadline TIMESTAMPTZ,
    timeout_deadline   TIMESTAMPTZ,
    output             TEXT,
    error              TEXT,
    cause              TEXT,
    created_at         TIMESTAMPTZ NOT NULL,
    closed_at          TIMESTAMPTZ
);
