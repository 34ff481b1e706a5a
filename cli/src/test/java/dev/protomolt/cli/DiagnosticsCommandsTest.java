package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.localstack.cloud.LocalCloudEndpoints;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.repository.v1.SavePipeDocRequest;
import dev.protomolt.proto.repository.v1.SavePipeDocResponse;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/** {@code doctor}, {@code status} and {@code storage} against the shared running platform's gateway. */
@ExtendWith(SharedPlatform.Resolver.class)
class DiagnosticsCommandsTest {

  static final String ACCOUNT = "doctor-acme";
  static final String STATUS_ACCOUNT = "status-acme";
  static final String STATUS_DATASOURCE = "status-docs";

  /** Its own graph id: graph ids and their state machines are global on the shared platform. */
  static final String STATUS_GRAPH = "status-demo";

  static LocalPlatform platform;
  static String gateway;
  static String gatewayCa;

  @BeforeAll
  static void provision(SharedPlatform shared) {
    platform = shared.platform();
    gateway = shared.gateway();
    gatewayCa = shared.gatewayCa();
    platform.provisionAccount(ACCOUNT, "doctor-docs");
  }

  @Test
  void doctorPrintsEveryProbeAndPassesOnAHealthyPlatform() {
    CommandRun doctor =
        CommandRun.of(
            "doctor", "--gateway", gateway, "--gateway-ca", gatewayCa, "--account", ACCOUNT);
    assertThat(doctor.status()).as("%s", doctor).isZero();
    assertThat(doctor.out())
        .containsPattern("config +ok")
        .containsPattern("kafka +ok")
        .containsPattern("claim-check +ok")
        .containsPattern("drafts +ok")
        .containsPattern("state-machine +skipped")
        .contains("every probe that ran passed");
  }

  @Test
  void doctorExitsNonZeroAndSaysWhatToFixWhenAProbeFails() {
    CommandRun doctor =
        CommandRun.of(
            "doctor", "--gateway", gateway, "--gateway-ca", gatewayCa, "--account", "nobody");
    assertThat(doctor.status()).as("%s", doctor).isEqualTo(1);
    assertThat(doctor.out())
        .containsPattern("claim-check +FAIL")
        .contains("account_id: account 'nobody' has no pipeline drive")
        .contains("check the account's drive")
        .contains("1 probe(s) failed");
  }

  @Test
  void statusPrintsEveryModuleServiceTheGatewayServesThenEveryGraphNode() {
    // A document of its own walks the demo graph, so each of its module nodes has a settled hop.
    platform.provisionAccount(STATUS_ACCOUNT, STATUS_DATASOURCE);
    long version =
        platform.applyAndActivate(
            DemoGraph.of(STATUS_ACCOUNT, STATUS_DATASOURCE, LocalPlatform.CLUSTER).toBuilder()
                .setGraphId(STATUS_GRAPH)
                .build());
    String docId =
        IntakeUploads.uploadOne(
            platform, STATUS_ACCOUNT, STATUS_DATASOURCE, "status.txt", "Counted at every node.");
    IntakeUploads.awaitEnded(
        platform, STATUS_ACCOUNT, version, Set.of(docId), Duration.ofSeconds(120));

    CommandRun status = CommandRun.of("status", "--gateway", gateway, "--gateway-ca", gatewayCa);
    assertThat(status.status()).as("%s", status).isZero();
    assertThat(status.out())
        .containsPattern("module service +queued +oldest +streams +in flight +group lag +memoized")
        // One row per sample module: its counts, an age, the group's lag and its memoized hops.
        .containsPattern("(?m)^parser +\\d+ +\\d+ (s|min|h) +\\d+ +\\d+ +\\d+ +\\d+$")
        .containsPattern("(?m)^chunker +\\d+ +\\d+ (s|min|h) +\\d+ +\\d+ +\\d+ +\\d+$")
        .containsPattern(
            "per graph node: queued and in flight now; done, rejected and retried are the answering"
                + " gateway task's hops since it started at \\S+Z; dead-lettered counts the letters"
                + " on the node's dead-letter topics")
        .containsPattern(
            "graph +node +module service +queued +oldest +in flight +done +rejected +retried"
                + " +dead-lettered");
    // Its document's one hop at each node is done; nothing of this graph waits or failed.
    for (String[] node :
        new String[][] {
          {DemoGraph.PARSE, "parser"},
          {DemoGraph.CHUNK, "chunker"},
          {DemoGraph.EMBED, "embedder"},
          {DemoGraph.INDEX, "index-sink"}
        }) {
      assertThat(status.out())
          .containsPattern(
              "(?m)^"
                  + STATUS_GRAPH
                  + " +"
                  + node[0]
                  + " +"
                  + node[1]
                  + " +0 +0 s +0 +1 +0 +0 +0$");
    }
  }

  @Test
  void storageCoherenceFindsARowWhoseObjectIsGoneAndReconcileOnlyReports() {
    SavePipeDocResponse saved =
        platform
            .store()
            .save(
                SavePipeDocRequest.newBuilder()
                    .setPipedoc(
                        PipeDoc.newBuilder()
                            .setDocId("doc-lost")
                            .setSearchMetadata(SearchMetadata.newBuilder().setBody("lost")))
                    .setAccountId(ACCOUNT)
                    .setGraphId("doctor-graph")
                    .setGraphLocationId("parser")
                    .setClusterId(LocalPlatform.CLUSTER)
                    .setGraphVersion(1)
                    .setKeep(true)
                    .build());
    String key = saved.getManifest().getEntries(0).getObjectKey();
    LocalCloudEndpoints ep = platform.endpoints();
    try (S3Client s3 =
        S3Client.builder()
            .endpointOverride(ep.s3())
            .forcePathStyle(true)
            .region(Region.of(ep.region()))
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(ep.accessKeyId(), ep.secretAccessKey())))
            .httpClient(UrlConnectionHttpClient.create())
            .build()) {
      s3.deleteObject(b -> b.bucket(LocalPlatform.STORE_BUCKET).key(key));
    }

    CommandRun coherence =
        CommandRun.of(
            "storage",
            "coherence",
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa,
            "--account",
            ACCOUNT);
    assertThat(coherence.status()).as("%s", coherence).isEqualTo(1);
    assertThat(coherence.out())
        .contains(
            ACCOUNT
                + ":pipeline (s3://"
                + LocalPlatform.STORE_BUCKET
                + "/"
                + ACCOUNT
                + "/pipeline/): INCOHERENT")
        .contains("ACTIVE=1")
        .contains("1 missing objects")
        .contains("missing doc-lost " + saved.getNodeId() + " " + key);

    CommandRun refused =
        CommandRun.of(
            "storage",
            "reconcile",
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa,
            "--account",
            ACCOUNT);
    assertThat(refused.status()).isEqualTo(1);
    assertThat(refused.err()).contains("--dry-run: required");
    CommandRun dryRun =
        CommandRun.of(
            "storage",
            "reconcile",
            "--dry-run",
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa,
            "--account",
            ACCOUNT);
    assertThat(dryRun.status()).as("%s", dryRun).isZero();
    assertThat(dryRun.out()).contains("dry run: nothing deleted");
  }
}
