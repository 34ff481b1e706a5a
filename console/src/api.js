// The console API: JSON over HTTP on the same origin. A refusal is {field, rule} with a 4xx
// status; it is thrown as ApiRefusal so each view can show the rule next to its field.

export class ApiRefusal extends Error {
  constructor(status, body) {
    super(`${body.field}: ${body.rule}`);
    this.status = status;
    this.field = body.field;
    this.rule = body.rule;
    this.validation = body.validation;
  }
}

async function call(method, path, body) {
  const response = await fetch(`api/${path}`, {
    method,
    credentials: 'same-origin',
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  const json = text ? JSON.parse(text) : {};
  if (!response.ok) throw new ApiRefusal(response.status, json);
  return json;
}

const q = (params) =>
  new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined && v !== '')).toString();

export const api = {
  graphs: (clusterId) => call('GET', `graphs?${q({ clusterId })}`),
  versions: (graphId) => call('GET', `graphs/${encodeURIComponent(graphId)}/versions`),
  validate: (graph, mode = 'VALIDATION_MODE_DRAFT') => call('POST', 'validate', { graph, mode }),
  deploy: (graph) => call('POST', 'deploy', { graph }),
  getDraft: (clusterId, graphId) =>
    call('GET', `drafts/${encodeURIComponent(clusterId)}/${encodeURIComponent(graphId)}`),
  saveDraft: (clusterId, graphId, graph, baseVersion) =>
    call('PUT', `drafts/${encodeURIComponent(clusterId)}/${encodeURIComponent(graphId)}`, {
      graph,
      baseVersion,
    }),
  modules: () => call('GET', 'modules'),
  documents: (accountId, datasourceId) => call('GET', `documents?${q({ accountId, datasourceId })}`),
  journey: (accountId, datasourceId, docId) =>
    call('GET', `documents/${encodeURIComponent(docId)}?${q({ accountId, datasourceId })}`),
  // Actions: the replay input is what an operator would paste into the Step Functions console.
  startReplay: (input) => call('POST', 'replays', input),
  replay: (executionArn) => call('GET', `replays?${q({ executionArn })}`),
  redrive: (executionArn) => call('POST', 'redrives', { executionArn }),
  deadLetters: (accountId, graphId) => call('GET', `dead-letters?${q({ accountId, graphId })}`),
  reprocess: (accountId, graphId, dlqId) =>
    call('POST', 'dead-letters/reprocess', { accountId, graphId, dlqId }),
};
