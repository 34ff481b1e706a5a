-- The highest Step Functions version number ever published for a graph's state machine, on the
-- head row that is never deleted. Activation predicts the next published version as one past it
-- (decision 0800); reading it from the surviving graph versions forgot the number of a deleted
-- version and predicted too low (decision 0811).
ALTER TABLE pipeline_graph_epochs
    ADD COLUMN last_state_machine_version BIGINT NOT NULL DEFAULT 0 CHECK (last_state_machine_version >= 0);

UPDATE pipeline_graph_epochs e
   SET last_state_machine_version = COALESCE((
       SELECT max(substring(g.state_machine_version_arn FROM ':([0-9]+)$')::BIGINT)
         FROM pipeline_graphs g
        WHERE g.graph_id = e.graph_id), 0);
