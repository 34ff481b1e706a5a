package dev.protomolt.cdk;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;

/**
 * A lenient snapshot of the dev template: how many resources of each type, and the set of logical
 * ids with CDK's hash suffixes removed. Property values are deliberately not compared (the
 * construct tests pin those); this catches a resource appearing, vanishing or being renamed (which
 * CloudFormation would replace). Refresh after reviewing the printed diff with
 * {@code ./mvnw -B -pl infra/cdk verify -Dsnapshot.update=true}.
 */
class TemplateSnapshotTest {

  private static final Path SNAPSHOT = Path.of("src/test/resources/snapshots/dev.json");
  private static final Path ACTUAL = Path.of("target/snapshot-actual/dev.json");
  private static final ObjectMapper JSON =
      new ObjectMapper()
          .enable(SerializationFeature.INDENT_OUTPUT)
          .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

  /** The shape compared: resource type → count, and the stable logical ids. */
  record Shape(Map<String, Integer> resourceTypes, List<String> logicalIds) {}

  @Test
  void devTemplateKeepsItsShape() throws IOException {
    Shape actual = shape(TestEnvironments.dev());
    if (Boolean.getBoolean("snapshot.update")) {
      Files.createDirectories(SNAPSHOT.getParent());
      JSON.writeValue(SNAPSHOT.toFile(), actual);
    }
    Shape expected = JSON.readValue(SNAPSHOT.toFile(), Shape.class);
    if (!expected.equals(actual)) {
      Files.createDirectories(ACTUAL.getParent());
      JSON.writeValue(ACTUAL.toFile(), actual);
    }
    List<String> diff = diff(expected, actual);
    assertThat(diff)
        .as(
            "template shape changed (new shape in %s; refresh with -Dsnapshot.update=true after"
                + " review)",
            ACTUAL)
        .isEmpty();
  }

  static Shape shape(Template template) {
    @SuppressWarnings("unchecked")
    Map<String, Map<String, Object>> resources =
        (Map<String, Map<String, Object>>) template.toJSON().get("Resources");
    Map<String, Integer> types = new TreeMap<>();
    TreeSet<String> ids = new TreeSet<>();
    resources.forEach(
        (id, resource) -> {
          types.merge((String) resource.get("Type"), 1, Integer::sum);
          ids.add(stable(id));
        });
    return new Shape(types, List.copyOf(ids));
  }

  /** Removes the 8-hex path hash (and a version's 32-hex content hash) CDK appends. */
  static String stable(String logicalId) {
    return logicalId.replaceFirst("[0-9A-F]{8}([0-9a-f]{32})?$", "");
  }

  static List<String> diff(Shape expected, Shape actual) {
    List<String> out = new ArrayList<>();
    TreeSet<String> types = new TreeSet<>(expected.resourceTypes().keySet());
    types.addAll(actual.resourceTypes().keySet());
    for (String type : types) {
      Integer was = expected.resourceTypes().get(type);
      Integer now = actual.resourceTypes().get(type);
      if (!Objects.equals(was, now)) {
        out.add(type + ": " + was + " -> " + now);
      }
    }
    for (String id : expected.logicalIds()) {
      if (!actual.logicalIds().contains(id)) {
        out.add("- " + id);
      }
    }
    for (String id : actual.logicalIds()) {
      if (!expected.logicalIds().contains(id)) {
        out.add("+ " + id);
      }
    }
    return out;
  }

  @Test
  void theDiffNamesEveryAddedRemovedAndRecountedThing() {
    Shape before =
        new Shape(
            Map.of("AWS::S3::Bucket", 2, "AWS::SNS::Topic", 1),
            List.of("StorageIntake", "StoragePlatform", "AlarmsTopic"));
    Shape after =
        new Shape(
            Map.of("AWS::S3::Bucket", 3),
            List.of("StorageIntake", "StoragePlatform", "StorageArchive"));
    assertThat(diff(before, after))
        .containsExactly(
            "AWS::S3::Bucket: 2 -> 3",
            "AWS::SNS::Topic: 1 -> null",
            "- AlarmsTopic",
            "+ StorageArchive");
    assertThat(diff(before, before)).isEmpty();
  }

  @Test
  void stableIdsDropOnlyCdkHashes() {
    assertThat(stable("FunctionsGraphAdminLiveDA27937B")).isEqualTo("FunctionsGraphAdminLive");
    assertThat(stable("FunctionsMigrateCurrentVersion75CB327Acc71ea7a4d41afb8ebbee14c89621b4c"))
        .isEqualTo("FunctionsMigrateCurrentVersion");
    assertThat(stable("GatewayEndpoint")).isEqualTo("GatewayEndpoint");
  }
}
