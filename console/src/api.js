// The console API: JSON over HTTP on the same origin. A refusal is {field, rule} with a 4xx
// status; it is thrown as ApiRefusal so each view can show the rule next to its field.

import { configureSignIn, currentCredentials, region, signInRequired } from './signIn.js';
import { signedHeaders } from './sigv4.js';

export class ApiRefusal extends Error {
  constructor(status, body) {
    super(`${body.field}: ${body.rule}`);
    this.status = status;
    this.field = body.field;
    this.rule = body.rule;
    this.validation = body.validation;
  }
}

// Where the API is and how to reach it: the page's settings (config.json, written beside the
// page by the stack in AWS) name the API and the operators' sign-in; there the page calls the
// HTTP API's own endpoint and SigV4-signs every call with the signed-in operator's credentials
// (decision 1752). Without settings (locally) the API is under api/ on the page's own origin and
// the loopback front's cookie authorizes it.
let settingsLoaded;
export function pageSettings() {
  if (!settingsLoaded) {
    settingsLoaded = (async () => {
      try {
        const response = await fetch('config.json', { credentials: 'same-origin' });
        if (response.ok) {
          const settings = await response.json();
          if (settings.signIn) configureSignIn(settings.signIn);
          return settings;
        }
      } catch {
        // No settings: the local defaults.
      }
      return {};
    })();
  }
  return settingsLoaded;
}

async function request(method, path, body) {
  const settings = await pageSettings();
  const payload = body ? JSON.stringify(body) : undefined;
  const headers = body ? { 'content-type': 'application/json' } : {};
  if (!signInRequired()) {
    return fetch(`${settings.api || 'api/'}${path}`, { method, credentials: 'same-origin', headers, body: payload });
  }
  const credentials = await currentCredentials();
  if (!credentials) {
    throw new ApiRefusal(401, { field: 'signIn', rule: 'sign in to use the console' });
  }
  const url = `${settings.apiEndpoint.replace(/\/$/, '')}/api/${path}`;
  const signed = await signedHeaders({ method, url, headers, body: payload, credentials, region: region() });
  return fetch(url, { method, credentials: 'omit', headers: signed, body: payload });
}

async function call(method, path, body) {
  const response = await request(method, path, body);
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
  // The newest trace naming the document, as tree rows in display order (decision 1830).
  trace: (accountId, datasourceId, docId) =>
    call('GET', `documents/${encodeURIComponent(docId)}/trace?${q({ accountId, datasourceId })}`),
  // A page of the module log lines of the document's hops, grouped by hop (decision 1754).
  logs: (accountId, datasourceId, docId, pageToken) =>
    call('GET', `documents/${encodeURIComponent(docId)}/logs?${q({ accountId, datasourceId, pageToken })}`),
  // Actions: the replay input is what an operator would paste into the Step Functions console.
  startReplay: (input) => call('POST', 'replays', input),
  replay: (executionArn) => call('GET', `replays?${q({ executionArn })}`),
  redrive: (executionArn) => call('POST', 'redrives', { executionArn }),
  deadLetters: (accountId, graphId, pageToken) =>
    call('GET', `dead-letters?${q({ accountId, graphId, pageToken })}`),
  reprocess: (accountId, graphId, dlqId) =>
    call('POST', 'dead-letters/reprocess', { accountId, graphId, dlqId }),
};
