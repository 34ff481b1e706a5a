package dev.protomolt.core.memo;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Message;
import dev.protomolt.core.orchestration.StateMachineNames;
import dev.protomolt.proto.config.v1.GraphNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * What decides whether an earlier hop's output may stand in for a module call (decision 1812):
 * the document at one node of one graph, and a digest over the input's checksum (the manifest
 * checksum, which covers every part's SHA-256), the module id, the node's module version and the
 * hash of the configuration the module is handed.
 *
 * @param inputChecksum the checksum of the stored state the hop reads
 * @param configHash {@link #configHash(GraphNode)} of the pinned node
 */
public record MemoKey(
    String accountId,
    String docId,
    String graphId,
    String nodeId,
    String inputChecksum,
    String moduleId,
    String moduleVersion,
    String configHash) {

  public MemoKey {
    Objects.requireNonNull(accountId, "accountId");
    Objects.requireNonNull(docId, "docId");
    Objects.requireNonNull(graphId, "graphId");
    Objects.requireNonNull(nodeId, "nodeId");
    Objects.requireNonNull(inputChecksum, "inputChecksum");
    Objects.requireNonNull(moduleId, "moduleId");
    Objects.requireNonNull(moduleVersion, "moduleVersion");
    Objects.requireNonNull(configHash, "configHash");
  }

  /** The key of a hop of {@code node} reading the stored state whose checksum is given. */
  public static MemoKey of(
      String accountId, String docId, String graphId, GraphNode node, String inputChecksum) {
    return new MemoKey(
        accountId,
        docId,
        graphId,
        node.getNodeId(),
        inputChecksum,
        node.getModuleId(),
        node.getModuleVersion(),
        configHash(node));
  }

  /** One hex SHA-256 over every component that must be equal for a reuse. */
  public String digest() {
    return StateMachineNames.hashOf(
        "memo", inputChecksum, moduleId, moduleVersion, configHash, graphId, nodeId);
  }

  /**
   * The hash of what the module is handed besides the document: its custom configuration, the
   * pre-mappings that shape its input and the capabilities that decide which parts it reads.
   * Serialized deterministically, so equal configurations hash alike in every JVM. Post-mappings,
   * filters and edges are not in it: they run outside the module on every hop, memoized or not.
   */
  public static String configHash(GraphNode node) {
    GraphNode handed =
        GraphNode.newBuilder()
            .setCustomConfig(node.getCustomConfig())
            .addAllPreMappings(node.getPreMappingsList())
            .setCapabilities(node.getCapabilities())
            .build();
    return HexFormat.of().formatHex(sha256(deterministic(handed)));
  }

  private static byte[] deterministic(Message message) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      CodedOutputStream out = CodedOutputStream.newInstance(bytes);
      // Struct fields are maps, whose default wire order is the map's iteration order.
      out.useDeterministicSerialization();
      message.writeTo(out);
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException("serializing to memory cannot fail", e);
    }
  }

  private static byte[] sha256(byte[] bytes) {
    try {
      return java.security.MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }
}
