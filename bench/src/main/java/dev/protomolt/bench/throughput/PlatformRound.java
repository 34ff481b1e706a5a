package dev.protomolt.bench.throughput;

import dev.protomolt.cli.LocalPlatform;
import dev.protomolt.core.orchestration.StateMachineNames;
import dev.protomolt.localstack.cloud.LocalCloudEndpoints;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;
import software.amazon.awssdk.services.sfn.model.HistoryEvent;

/**
 * Uploads documents to one datasource of the running platform and waits for every execution to
 * end. Completion is read by listing the graph's executions twice a second rather than describing
 * each one, so the driver's own polling stays a small part of the CPU it measures.
 */
public final class PlatformRound {

  /** How a round went: its executions by outcome, and their ARNs for the history count. */
  public record Result(long nanos, Map<String, Integer> outcomes, List<String> executionArns) {}

  private PlatformRound() {}

  public static Result run(
      LocalPlatform platform,
      String account,
      String datasource,
      String graphId,
      long version,
      List<CorpusDocument> documents,
      String prefix)
      throws InterruptedException {
    long start = System.nanoTime();
    Set<String> pending = upload(platform, account, datasource, documents, prefix);
    return await(platform, account, graphId, version, pending, start);
  }

  /** Uploads the documents to the intake bucket; returns the doc ids intake names them by. */
  public static Set<String> upload(
      LocalPlatform platform,
      String account,
      String datasource,
      List<CorpusDocument> documents,
      String prefix) {
    Set<String> pending = new HashSet<>();
    LocalCloudEndpoints ep = platform.endpoints();
    try (S3Client s3 =
        S3Client.builder()
            .endpointOverride(ep.s3())
            .region(Region.of(ep.region()))
            .forcePathStyle(true)
            .httpClient(UrlConnectionHttpClient.create())
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(ep.accessKeyId(), ep.secretAccessKey())))
            .build()) {
      for (CorpusDocument document : documents) {
        String key = account + "/" + datasource + "/" + prefix + document.name();
        s3.putObject(
            b -> b.bucket(LocalPlatform.INTAKE_BUCKET).key(key).contentType(document.mimeType()),
            RequestBody.fromBytes(document.bytes()));
        pending.add(StateMachineNames.hashOf("intake", LocalPlatform.INTAKE_BUCKET, key));
      }
    }
    return pending;
  }

  /**
   * Waits for every document of {@code docIds} to be admitted to {@code graphId}'s version and its
   * execution to end; the result's time runs from {@code start} ({@link System#nanoTime}).
   */
  public static Result await(
      LocalPlatform platform,
      String account,
      String graphId,
      long version,
      Set<String> docIds,
      long start)
      throws InterruptedException {
    Set<String> pending = new HashSet<>(docIds);
    Map<String, String> arnByDoc = new HashMap<>();
    Map<String, Integer> outcomes = new TreeMap<>();
    long deadline = start + Duration.ofMinutes(45).toNanos();
    String machineArn = null;
    while (!pending.isEmpty()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            pending.size() + " documents of " + graphId + " did not end within 45 minutes");
      }
      Thread.sleep(500);
      if (!arnByDoc.keySet().containsAll(pending)) {
        for (LocalPlatform.Admission a : platform.admissions(account)) {
          if (a.graphId().equals(graphId)
              && a.graphVersion() == version
              && pending.contains(a.docId())
              && !a.executionArn().isEmpty()) {
            arnByDoc.put(a.docId(), a.executionArn());
          }
        }
      }
      if (machineArn == null && !arnByDoc.isEmpty()) {
        machineArn = machineOf(arnByDoc.values().iterator().next());
      }
      if (machineArn == null) {
        continue;
      }
      Map<String, ExecutionStatus> status = new HashMap<>();
      String arn = machineArn;
      for (ExecutionListItem e :
          platform
              .stepFunctions()
              .listExecutionsPaginator(b -> b.stateMachineArn(arn))
              .executions()) {
        status.put(e.executionArn(), e.status());
      }
      for (var it = pending.iterator(); it.hasNext(); ) {
        ExecutionStatus s = status.get(arnByDoc.get(it.next()));
        if (s != null && s != ExecutionStatus.RUNNING) {
          outcomes.merge(s.toString(), 1, Integer::sum);
          it.remove();
        }
      }
    }
    return new Result(System.nanoTime() - start, outcomes, List.copyOf(arnByDoc.values()));
  }

  /** State transitions of the executions as Step Functions Standard bills them: states entered. */
  static long stateTransitions(LocalPlatform platform, List<String> executionArns) {
    long transitions = 0;
    for (String arn : executionArns) {
      for (HistoryEvent event :
          platform
              .stepFunctions()
              .getExecutionHistoryPaginator(b -> b.executionArn(arn))
              .events()) {
        if (event.typeAsString().endsWith("StateEntered")) {
          transitions++;
        }
      }
    }
    return transitions;
  }

  /** arn:aws:states:region:account:execution:machine:name → the machine's ARN. */
  private static String machineOf(String executionArn) {
    String machine = executionArn.replace(":execution:", ":stateMachine:");
    return machine.substring(0, machine.lastIndexOf(':'));
  }
}
