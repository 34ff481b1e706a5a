package dev.protomolt.engine.hop;

import static dev.protomolt.core.graph.SampleGraphs.linear;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.protomolt.core.orchestration.AdmissionLog.AdmissionRecord;
import dev.protomolt.core.orchestration.AdmissionLog.Outcome;
import dev.protomolt.engine.admission.IntakeService;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.module.v1.WorkDispatch;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An S3 object-created notification (a real event's JSON) saves the intake copy in the document
 * store and admits it; the first module receives it by reference at its own address.
 */
class IntakeServiceTest {

  private HopHarness h;

  @BeforeEach
  void start() {
    h = new HopHarness();
  }

  @AfterEach
  void stop() {
    h.close();
  }

  @Test
  void anUploadSavesTheIntakeCopyAndStartsTheGraphOnIt() throws Exception {
    h.admin.create(linear("g1", 0), OptionalLong.empty(), "ann");
    h.activation.activate("g1", "c1", 1);

    List<AdmissionRecord> admitted = h.intake.handle(fixture("events/s3-object-created.json"));

    assertThat(admitted)
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.outcome()).isEqualTo(Outcome.STARTED);
              assertThat(r.accountId()).isEqualTo("acme");
              assertThat(r.datasourceId()).isEqualTo("ds-1");
            });
    JsonNode input =
        HopHarness.parse(
            h.sfn
                .describeExecution(b -> b.executionArn(admitted.getFirst().executionArn()))
                .input());
    assertThat(input.at("/stream/documentRef/graphId").asText()).isEqualTo("intake:acme");
    assertThat(input.at("/stream/documentRef/graphAddressId").asText()).isEqualTo("ds-1");
    PipeDoc intakeCopy =
        h.staging.hydrate(
            DocumentReference.newBuilder()
                .setDocId(admitted.getFirst().docId())
                .setAccountId("acme")
                .setGraphId("intake:acme")
                .setGraphAddressId("ds-1")
                .build(),
            Set.of(),
            true);
    assertThat(intakeCopy.getBlobBag().getBlob().getStorageRef().getObjectKey())
        .as("the key is URL-decoded")
        .isEqualTo("acme/ds-1/reports/q3 report(2).pdf");
    assertThat(intakeCopy.getBlobBag().getBlob().getFilename()).isEqualTo("q3 report(2).pdf");

    WorkDispatch parse = h.nextDispatch();
    assertThat(parse.getStream().getDocumentRef().getGraphId()).isEqualTo("g1");
    assertThat(parse.getStream().getDocumentRef().getGraphAddressId()).isEqualTo("parse");
    // The intake node's module-free hop carries the blob reference forward to the parser's copy.
    assertThat(
            h.staging
                .hydrate(parse.getStream().getDocumentRef(), Set.of(), true)
                .getBlobBag()
                .getBlob()
                .getStorageRef()
                .getObjectKey())
        .isEqualTo("acme/ds-1/reports/q3 report(2).pdf");

    // The same notification again names the same document and the same execution.
    List<AdmissionRecord> again = h.intake.handle(fixture("events/s3-object-created.json"));
    assertThat(again.getFirst().executionName()).isEqualTo(admitted.getFirst().executionName());
    assertThat(again.getFirst().docId()).isEqualTo(admitted.getFirst().docId());
  }

  @Test
  void anUploadOnAnUnboundDatasourceIsRecorded() throws Exception {
    List<AdmissionRecord> admitted = h.intake.handle(fixture("events/s3-object-created.json"));
    assertThat(admitted)
        .singleElement()
        .satisfies(r -> assertThat(r.outcome()).isEqualTo(Outcome.UNBOUND));
  }

  @Test
  void keysWithoutAccountAndDatasourceAreRefusedNamingTheRule() {
    assertThatThrownBy(
            () ->
                h.intake.admit(
                    new IntakeService.IntakeObject(
                        "protomolt-intake", "acme/file.pdf", 1, "e", "")))
        .hasMessage(
            "intake object key 'acme/file.pdf' must be <accountId>/<datasourceId>/<path> with no"
                + " empty segment");
    assertThat(h.intake.handle("{\"Service\":\"Amazon S3\",\"Event\":\"s3:TestEvent\"}")).isEmpty();
    assertThatThrownBy(
            () ->
                h.intake.handle("{\"Records\":[{\"eventName\":\"ObjectCreated:Put\",\"s3\":{}}]}"))
        .hasMessage("Records[0].s3 must name bucket.name and object.key");
  }

  private static String fixture(String name) throws IOException {
    try (InputStream in = IntakeServiceTest.class.getClassLoader().getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
