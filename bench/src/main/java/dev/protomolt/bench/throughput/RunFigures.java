package dev.protomolt.bench.throughput;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** What one measured run cost: time, CPU and, on the platform, the cloud requests it made. */
record RunFigures(
    String label,
    int documents,
    long wallNanos,
    long cpuNanos,
    Map<String, Integer> outcomes,
    Map<String, Long> meter,
    long stateTransitions,
    Map<String, KafkaRecords.Gain> kafka) {

  double documentsPerSecond() {
    return documents / (wallNanos / 1e9);
  }

  double cpuMillisPerDocument() {
    return cpuNanos / 1e6 / documents;
  }

  private double perDocument(long count) {
    return (double) count / documents;
  }

  private long sum(String prefix) {
    return meter.entrySet().stream()
        .filter(e -> e.getKey().startsWith(prefix))
        .mapToLong(Map.Entry::getValue)
        .sum();
  }

  long lambdaInvocations() {
    return sum("lambda.invocations.");
  }

  long kafkaRecords() {
    return kafka.values().stream().mapToLong(KafkaRecords.Gain::records).sum();
  }

  long kafkaBytes() {
    return kafka.values().stream().mapToLong(KafkaRecords.Gain::bytes).sum();
  }

  String headline() {
    return String.format(
        Locale.ROOT,
        "%s: %d documents in %.1f s = %.2f documents/s, %.1f CPU ms per document; outcomes %s",
        label,
        documents,
        wallNanos / 1e9,
        documentsPerSecond(),
        cpuMillisPerDocument(),
        outcomes);
  }

  /** Per-document request counts, for the platform runs. */
  String requests() {
    Map<String, String> s3 = new TreeMap<>();
    Map<String, String> lambdas = new TreeMap<>();
    meter.forEach(
        (name, value) -> {
          if (name.startsWith("s3.")) {
            s3.put(name.substring(3), String.format(Locale.ROOT, "%.2f", perDocument(value)));
          } else if (name.startsWith("lambda.invocations.")) {
            lambdas.put(
                name.substring("lambda.invocations.".length()),
                String.format(Locale.ROOT, "%.2f", perDocument(value)));
          }
        });
    Map<String, String> topics = new TreeMap<>();
    kafka.forEach(
        (topic, gain) ->
            topics.put(topic, String.format(Locale.ROOT, "%.2f", perDocument(gain.records()))));
    return String.format(
        Locale.ROOT,
        "  per document: S3 requests %.2f %s%n"
            + "                Lambda invocations %.2f %s%n"
            + "                state transitions %.2f%n"
            + "                Kafka records %.2f (%.0f bytes) %s",
        perDocument(sum("s3.")),
        s3,
        perDocument(lambdaInvocations()),
        lambdas,
        perDocument(stateTransitions),
        perDocument(kafkaRecords()),
        perDocument(kafkaBytes()),
        topics);
  }

  /** AWS cost per million documents at the table's prices, by service. */
  String costPerMillion(AwsPrices prices) {
    double scale = 1e6 / documents;
    double lambdaRequests = lambdaInvocations() * prices.lambdaPerRequest() * scale;
    double gbSeconds = sum("lambda.nanos.") / 1e9 * prices.lambdaMemoryMb() / 1024.0;
    double lambdaCompute = gbSeconds * prices.lambdaPerGbSecond() * scale;
    double sfn = stateTransitions * prices.sfnPerTransition() * scale;
    double s3 = prices.s3(meter) * scale;
    // Every record is written once and read once by its one consumer group.
    double gb = kafkaBytes() / 1e9;
    double msk = gb * (prices.mskPerGbIn() + prices.mskPerGbOut()) * scale;
    double total = lambdaRequests + lambdaCompute + sfn + s3 + msk;
    return String.format(
        Locale.ROOT,
        "  AWS cost per million documents (us-east-1 list prices of %s): $%.2f = Lambda requests"
            + " $%.2f + Lambda GB-s $%.2f (%d MB, local durations) + Step Functions $%.2f + S3"
            + " requests $%.2f + MSK bytes $%.2f",
        prices.asOf(),
        total,
        lambdaRequests,
        lambdaCompute,
        prices.lambdaMemoryMb(),
        sfn,
        s3,
        msk);
  }
}
