package dev.protomolt.localstack.cloud;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * {@code java dev.protomolt.localstack.cloud.LocalCloudMain [--data DIR]}: starts the local cloud
 * in the foreground, prints its endpoints as environment variables, and runs until interrupted
 * (Ctrl-C stops every component through the shutdown hook).
 */
public final class LocalCloudMain {

  private LocalCloudMain() {}

  public static void main(String[] args) throws InterruptedException {
    LocalCloudSettings settings = LocalCloudSettings.fromSystemProperties();
    for (int i = 0; i < args.length; i++) {
      if ("--data".equals(args[i]) && i + 1 < args.length) {
        settings = settings.withDataDir(Path.of(args[++i]));
      } else {
        System.err.println(
            "usage: LocalCloudMain [--data DIR]   (ports: -D"
                + LocalCloudSettings.S3_PORT_SETTING
                + "=PORT and the other protomolt.local.*.port"
                + " settings; unknown argument '"
                + args[i]
                + "')");
        System.exit(2);
      }
    }
    long started = System.nanoTime();
    LocalCloud cloud = LocalCloud.start(settings);
    System.out.printf(
        "# local cloud up in %d ms, data in %s%n",
        (System.nanoTime() - started) / 1_000_000, settings.dataDir().toAbsolutePath());
    for (Map.Entry<String, String> e : cloud.endpoints().environment().entrySet()) {
      System.out.println("export " + e.getKey() + "=" + e.getValue());
    }
    cloud
        .endpoints()
        .lambda()
        .ifPresent(uri -> System.out.println("export AWS_ENDPOINT_URL_LAMBDA=" + uri));
    new CountDownLatch(1).await();
  }
}
