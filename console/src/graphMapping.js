// The designer's canvas and a PipelineGraph (protobuf JSON mapping) are two views of one model:
// these functions turn either into the other, so the canvas never holds anything the graph
// cannot, and a graph loaded from the API draws exactly as it was saved.

export const TRANSPORTS = {
  TRANSPORT_TYPE_MEMORY: {
    label: 'MEMORY',
    tradeoff: 'fastest: the document rides in the execution, nothing is stored between the hops',
  },
  TRANSPORT_TYPE_CACHE: {
    label: 'CACHE',
    tradeoff: 'a short-lived stored copy, reclaimed once the next hop settles: cheap, not replayable',
  },
  TRANSPORT_TYPE_PERSIST: {
    label: 'PERSIST',
    tradeoff: 'a kept copy at every hop: replayable and inspectable, costs storage',
  },
};

export const NODE_TYPES = ['NODE_TYPE_INTAKE', 'NODE_TYPE_PROCESSOR', 'NODE_TYPE_SINK'];

/** The canvas nodes and edges Vue Flow draws for a graph. */
export function graphToCanvas(graph) {
  const nodes = (graph.nodes || []).map((n) => ({
    id: n.nodeId,
    type: 'default',
    position: {
      x: n.designConfig?.canvasX ?? 0,
      y: n.designConfig?.canvasY ?? 0,
    },
    label: n.name || n.nodeId,
    data: {
      nodeType: n.nodeType || 'NODE_TYPE_PROCESSOR',
      moduleId: n.moduleId || '',
      datasourceId: n.datasourceId || '',
      indexPlanIds: (n.indexPlanIds || []).join(','),
      needsBlobContent: Boolean(n.capabilities?.needsBlobContent),
      placed: n.designConfig !== undefined,
    },
  }));
  const edges = (graph.edges || []).map((e) => ({
    id: e.edgeId,
    source: e.fromNodeId,
    target: e.toNodeId,
    data: {
      transport: e.transportType || 'TRANSPORT_TYPE_PERSIST',
      condition: e.condition || '',
    },
  }));
  return { nodes, edges, needsLayout: nodes.length > 0 && nodes.every((n) => !n.data.placed) };
}

/** The PipelineGraph the canvas stands for, positions kept in each node's design config. */
export function canvasToGraph(meta, nodes, edges) {
  return {
    graphId: meta.graphId,
    clusterId: meta.clusterId,
    accountId: meta.accountId,
    name: meta.name || meta.graphId,
    nodes: nodes.map((n) => {
      const out = {
        nodeId: n.id,
        name: typeof n.label === 'string' && n.label ? n.label : n.id,
        nodeType: n.data.nodeType,
        designConfig: { canvasX: round(n.position.x), canvasY: round(n.position.y) },
      };
      if (n.data.nodeType === 'NODE_TYPE_INTAKE') {
        out.datasourceId = n.data.datasourceId;
      } else {
        out.moduleId = n.data.moduleId;
      }
      if (n.data.needsBlobContent) {
        out.capabilities = { needsBlobContent: true };
      }
      const plans = (n.data.indexPlanIds || '')
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean);
      if (plans.length > 0) {
        out.indexPlanIds = plans;
      }
      return out;
    }),
    edges: edges.map((e) => {
      const out = {
        edgeId: e.id,
        fromNodeId: e.source,
        toNodeId: e.target,
        transportType: e.data?.transport || 'TRANSPORT_TYPE_PERSIST',
      };
      if (e.data?.condition) {
        out.condition = e.data.condition;
      }
      return out;
    }),
  };
}

/** A node id not yet on the canvas, from the module id (or "intake"). */
export function freshNodeId(base, nodes) {
  const taken = new Set(nodes.map((n) => n.id));
  const stem = base.replace(/[^A-Za-z0-9_-]/g, '-') || 'node';
  if (!taken.has(stem)) return stem;
  for (let i = 2; ; i += 1) {
    if (!taken.has(`${stem}-${i}`)) return `${stem}-${i}`;
  }
}

/** Violations grouped by where they belong: a node id, an edge id, or the graph. */
export function violationsByElement(result) {
  const byNode = {};
  const byEdge = {};
  const graph = [];
  for (const v of result?.violations || []) {
    if (v.edgeId) (byEdge[v.edgeId] ||= []).push(v);
    else if (v.nodeId) (byNode[v.nodeId] ||= []).push(v);
    else graph.push(v);
  }
  return { byNode, byEdge, graph };
}

function round(x) {
  return Math.round(x * 10) / 10;
}
