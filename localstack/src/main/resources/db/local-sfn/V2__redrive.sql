-- RedriveExecution: how often an execution was redriven and when last, so DescribeExecution and
-- ListExecutions (redriveFilter) can say so, and the client token of the last redrive, so the SDK's
-- automatic retry of one RedriveExecution call does not count as a second redrive. The checkpoint
-- columns of V1 (current_state, state_input) already say where a redrive re-enters: a failed,
-- aborted or timed-out execution keeps the top-level state it was running when it stopped.

ALTER TABLE sfn_executions ADD COLUMN IF NOT EXISTS redrive_count INT NOT NULL DEFAULT 0;
ALTER TABLE sfn_executions ADD COLUMN IF NOT EXISTS redrive_date TIMESTAMPTZ;
ALTER TABLE sfn_executions ADD COLUMN IF NOT EXISTS redrive_client_token TEXT;
