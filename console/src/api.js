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

// Where the API is: the page's settings (config.json, written beside the page by the stack in
// AWS) may name it; without them the API is under api/ on the page's own origin, as locally.
let base;
async function apiBase() {
  if (base === undefined) {
    base = 'api/';
    try {
      const settings = await fetch('config.json', { credentials: 'same-origin' });
      if (settings.ok) base = (await settings.json()).api || base;
    } catch {
      // No settings: keep the default.
    }
  }
  return base;
}

async function call(method, path, body) {
  const response = await fetch(`${await apiBase()}${path}`, {
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
  diff: (graphId, from, to) => call('GET', `graphs/${encodeURIComponent(graphId)}/diff?${q({ from, to })}`),
  // Rollback: activate a stored version; expectedActiveVersion is the one the operator saw active
  // when confirming, so a change made meanwhile by someone else is refused rather than undone.
  rollback: (graphId, version, clusterId, expectedActiveVersion) =>
    call('POST', `graphs/${encodeURIComponent(graphId)}/versions/${version}/activate`, {
      clusterId,
      expectedActiveVersion,
    }),
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
  documents: (accountId, datasourceId, pageToken) =>
    call('GET', `documents?${q({ accountId, datasourceId, pageToken })}`),
  journey: (accountId, datasourceId, docId) =>
    call('GET', `documents/${encodeURIComponent(docId)}?${q({ accountId, datasourceId })}`),
  // Actions: the replay input is what an operator would paste into the Step Functions console.
  startReplay: (input) => call('POST', 'replays', input),
  replay: (executionArn) => call('GET', `replays?${q({ executionArn })}`),
  redrive: (executionArn) => call('POST', 'redrives', { executionArn }),
  deadLetters: (accountId, graphId, pageToken) =>
    call('GET', `dead-letters?${q({ accountId, graphId, pageToken })}`),
  reprocess: (accountId, graphId, dlqId) =>
    call('POST', 'dead-letters/reprocess', { accountId, graphId, dlqId }),
};
