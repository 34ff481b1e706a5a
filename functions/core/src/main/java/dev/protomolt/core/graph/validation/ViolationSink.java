package dev.protomolt.core.graph.validation;

import dev.protomolt.proto.config.v1.Severity;
import dev.protomolt.proto.config.v1.ValidationViolation;
import java.util.ArrayList;
import java.util.List;

/** Collects one rule's violations, stamping the rule name on each. */
public final class ViolationSink {

  private final List<ValidationViolation> violations = new ArrayList<>();
  private String rule = "";

  void beginRule(String name) {
    this.rule = name;
  }

  public void graph(String message) {
    add(ValidationViolation.newBuilder().setMessage(message));
  }

  public void node(String nodeId, String message) {
    add(ValidationViolation.newBuilder().setNodeId(nodeId).setMessage(message));
  }

  public void edge(String edgeId, String message) {
    add(ValidationViolation.newBuilder().setEdgeId(edgeId).setMessage(message));
  }

  public void warnNode(String nodeId, String message) {
    add(
        ValidationViolation.newBuilder()
            .setNodeId(nodeId)
            .setMessage(message)
            .setSeverity(Severity.SEVERITY_WARNING));
  }

  /** A violation located inside an expression or field. */
  public void at(String nodeId, String edgeId, String field, int position, String message) {
    add(
        ValidationViolation.newBuilder()
            .setNodeId(nodeId)
            .setEdgeId(edgeId)
            .setField(field)
            .setPosition(position)
            .setMessage(message));
  }

  private void add(ValidationViolation.Builder builder) {
    if (builder.getSeverity() == Severity.SEVERITY_UNSPECIFIED) {
      builder.setSeverity(Severity.SEVERITY_ERROR);
    }
    violations.add(builder.setRule(rule).build());
  }

  List<ValidationViolation> violations() {
    return List.copyOf(violations);
  }
}
