package dev.protomolt.core.routing;

import dev.protomolt.proto.config.v1.GraphEdge;

/** One place a document goes next: the edge taken, its target node and how it travels. */
public record Destination(GraphEdge edge, String toNodeId, EdgeBehavior behavior) {}
