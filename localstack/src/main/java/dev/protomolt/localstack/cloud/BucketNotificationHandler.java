package dev.protomolt.localstack.cloud;

import dev.protomolt.localstack.s3.BucketNotificationConfigurations;
import dev.protomolt.localstack.s3.BucketNotificationConfigurations.InvalidConfigurationException;
import java.nio.charset.StandardCharsets;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.gaul.shaded.org.eclipse.jetty.http.HttpHeader;
import org.gaul.shaded.org.eclipse.jetty.io.Content;
import org.gaul.shaded.org.eclipse.jetty.server.Handler;
import org.gaul.shaded.org.eclipse.jetty.server.Request;
import org.gaul.shaded.org.eclipse.jetty.server.Response;
import org.gaul.shaded.org.eclipse.jetty.util.Callback;

/**
 * Answers {@code GET} and {@code PUT /<bucket>?notification} in front of S3Proxy, which does not
 * implement bucket notifications; every other request goes on to S3Proxy. A request must be
 * signed with a key the local cloud knows (its own or a deployed function's); the signature itself
 * is S3Proxy's to check on object requests, and the caller's permission is the local IAM checks'
 * (decision 1580), made before the request leaves the caller.
 */
final class BucketNotificationHandler extends Handler.Wrapper {

  private static final Pattern BUCKET_PATH =
      Pattern.compile("/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])/?");
  private static final Pattern CREDENTIAL = Pattern.compile("Credential=([^/,\\s]+)/");

  private final BucketNotificationConfigurations configurations;
  private final Predicate<String> bucketExists;
  private final Predicate<String> knownKey;

  BucketNotificationHandler(
      Handler s3Proxy,
      BucketNotificationConfigurations configurations,
      Predicate<String> bucketExists,
      Predicate<String> knownKey) {
    super(s3Proxy);
    this.configurations = configurations;
    this.bucketExists = bucketExists;
    this.knownKey = knownKey;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    String method = request.getMethod();
    Matcher bucket = BUCKET_PATH.matcher(request.getHttpURI().getPath());
    if (!isNotificationRequest(request.getHttpURI().getQuery())
        || !(method.equals("GET") || method.equals("PUT"))
        || !bucket.matches()) {
      return super.handle(request, response, callback);
    }
    String name = bucket.group(1);
    Matcher credential =
        CREDENTIAL.matcher(String.valueOf(request.getHeaders().get(HttpHeader.AUTHORIZATION)));
    if (!credential.find() || !knownKey.test(credential.group(1))) {
      return error(response, callback, 403, "AccessDenied", "Access Denied", name);
    }
    if (!bucketExists.test(name)) {
      return error(
          response, callback, 404, "NoSuchBucket", "The specified bucket does not exist", name);
    }
    if (method.equals("GET")) {
      return xml(response, callback, 200, configurations.get(name));
    }
    try {
      configurations.put(name, Content.Source.asString(request, StandardCharsets.UTF_8));
    } catch (InvalidConfigurationException e) {
      return error(response, callback, 400, e.code(), e.getMessage(), name);
    }
    response.setStatus(200);
    callback.succeeded();
    return true;
  }

  private static boolean isNotificationRequest(String query) {
    if (query == null) {
      return false;
    }
    for (String part : query.split("&")) {
      if (part.equals("notification") || part.startsWith("notification=")) {
        return true;
      }
    }
    return false;
  }

  private static boolean xml(Response response, Callback callback, int status, String body) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/xml");
    Content.Sink.write(response, true, body, callback);
    return true;
  }

  private static boolean error(
      Response response,
      Callback callback,
      int status,
      String code,
      String message,
      String bucket) {
    return xml(
        response,
        callback,
        status,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>"
            + code
            + "</Code><Message>"
            + escape(message)
            + "</Message><BucketName>"
            + bucket
            + "</BucketName></Error>");
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
