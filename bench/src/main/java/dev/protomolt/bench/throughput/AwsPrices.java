package dev.protomolt.bench.throughput;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Properties;

/** The price table (aws-prices-us-east-1.properties): data with its date and source pages. */
record AwsPrices(
    String asOf,
    double lambdaPerRequest,
    double lambdaPerGbSecond,
    int lambdaMemoryMb,
    double sfnPerTransition,
    double s3PerPutCopyPostList,
    double s3PerGetAndOther,
    double mskPerClusterHour,
    double mskPerPartitionHour,
    double mskPerGbIn,
    double mskPerGbOut) {

  static AwsPrices load() throws IOException {
    Properties p = new Properties();
    try (InputStream in = AwsPrices.class.getResourceAsStream("/aws-prices-us-east-1.properties")) {
      if (in == null) {
        throw new IllegalStateException("aws-prices-us-east-1.properties is not on the classpath");
      }
      p.load(in);
    }
    return new AwsPrices(
        p.getProperty("as_of"),
        number(p, "lambda.per_request"),
        number(p, "lambda.per_gb_second"),
        (int) number(p, "lambda.memory_mb"),
        number(p, "sfn.per_state_transition"),
        number(p, "s3.per_put_copy_post_list"),
        number(p, "s3.per_get_and_other"),
        number(p, "msk.per_cluster_hour"),
        number(p, "msk.per_partition_hour"),
        number(p, "msk.per_gb_in"),
        number(p, "msk.per_gb_out"));
  }

  private static double number(Properties p, String key) {
    String value = p.getProperty(key);
    if (value == null) {
      throw new IllegalStateException("aws-prices-us-east-1.properties: " + key + " is missing");
    }
    return Double.parseDouble(value);
  }

  /** S3 request cost of the counted kinds ({@code s3.PUT}, {@code s3.GET}, ...). */
  double s3(Map<String, Long> counts) {
    double cost = 0;
    for (Map.Entry<String, Long> e : counts.entrySet()) {
      if (!e.getKey().startsWith("s3.")) {
        continue;
      }
      String kind = e.getKey().substring(3);
      if (kind.startsWith("DELETE")) {
        continue;
      }
      boolean tier1 =
          kind.equals("PUT") || kind.equals("COPY") || kind.equals("POST") || kind.equals("LIST");
      cost += e.getValue() * (tier1 ? s3PerPutCopyPostList : s3PerGetAndOther);
    }
    return cost;
  }
}
