// Automatic layout for graphs that have no positions yet: dagre's layered layout, left to right,
// which suits pipelines that mostly flow one way.
import dagre from '@dagrejs/dagre';

export function layout(nodes, edges) {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'LR', nodesep: 40, ranksep: 90 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of nodes) g.setNode(n.id, { width: 170, height: 48 });
  for (const e of edges) g.setEdge(e.source, e.target);
  dagre.layout(g);
  return nodes.map((n) => {
    const p = g.node(n.id);
    return { ...n, position: { x: p.x - 85, y: p.y - 24 } };
  });
}
