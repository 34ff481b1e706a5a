import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canvasToGraph, freshNodeId, graphToCanvas, violationsByElement } from '../../src/graphMapping.js';
import { layout } from '../../src/layout.js';

const graph = {
  graphId: 'g',
  clusterId: 'local',
  accountId: 'acme',
  name: 'g',
  nodes: [
    { nodeId: 'intake', name: 'intake', nodeType: 'NODE_TYPE_INTAKE', datasourceId: 'docs',
      designConfig: { canvasX: 10, canvasY: 20 } },
    { nodeId: 'parser', name: 'parser', nodeType: 'NODE_TYPE_PROCESSOR', moduleId: 'parser',
      capabilities: { needsBlobContent: true }, designConfig: { canvasX: 200, canvasY: 20 } },
    { nodeId: 'index', name: 'index', nodeType: 'NODE_TYPE_SINK', moduleId: 'index-sink',
      indexPlanIds: ['protomolt-sample'], designConfig: { canvasX: 400, canvasY: 20 } },
  ],
  edges: [
    { edgeId: 'intake-parser', fromNodeId: 'intake', toNodeId: 'parser', transportType: 'TRANSPORT_TYPE_MEMORY' },
    { edgeId: 'parser-index', fromNodeId: 'parser', toNodeId: 'index', transportType: 'TRANSPORT_TYPE_PERSIST',
      condition: 'true' },
  ],
};

test('a graph survives the canvas both ways, positions included', () => {
  const canvas = graphToCanvas(graph);
  assert.equal(canvas.needsLayout, false);
  const back = canvasToGraph(graph, canvas.nodes, canvas.edges);
  assert.deepEqual(back, graph);
});

test('a graph without positions asks for a layout, and the layout places every node apart', () => {
  const bare = { ...graph, nodes: graph.nodes.map(({ designConfig, ...n }) => n) };
  const canvas = graphToCanvas(bare);
  assert.equal(canvas.needsLayout, true);
  const placed = layout(canvas.nodes, canvas.edges);
  const xs = placed.map((n) => n.position.x);
  assert.ok(xs[0] < xs[1] && xs[1] < xs[2], `left to right along the edges: ${xs}`);
});

test('fresh node ids never collide', () => {
  assert.equal(freshNodeId('parser', [{ id: 'parser' }, { id: 'parser-2' }]), 'parser-3');
  assert.equal(freshNodeId('index sink', []), 'index-sink');
});

test('violations land on their edge, their node, or the graph', () => {
  const v = violationsByElement({
    violations: [
      { rule: 'CelExpression', edgeId: 'e1', message: 'bad' },
      { rule: 'NodeType', nodeId: 'n1', message: 'no module' },
      { rule: 'IntakePresence', message: 'no intake' },
    ],
  });
  assert.equal(v.byEdge.e1[0].rule, 'CelExpression');
  assert.equal(v.byNode.n1[0].rule, 'NodeType');
  assert.equal(v.graph[0].rule, 'IntakePresence');
});
