package dev.protomolt.localstack.cloud;

import dev.protomolt.localstack.meter.LocalCloudMeter;
import org.gaul.shaded.org.eclipse.jetty.server.Handler;
import org.gaul.shaded.org.eclipse.jetty.server.Request;
import org.gaul.shaded.org.eclipse.jetty.server.Response;
import org.gaul.shaded.org.eclipse.jetty.util.Callback;

/**
 * Counts every request in front of S3Proxy by the kind S3 bills it as ({@code s3.PUT}, {@code
 * s3.COPY}, {@code s3.GET}, {@code s3.HEAD}, {@code s3.LIST}, {@code s3.DELETE}, ...), in {@link
 * LocalCloudMeter}; the request then goes on unchanged.
 */
final class S3RequestMeter extends Handler.Wrapper {

  S3RequestMeter(Handler next) {
    super(next);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    LocalCloudMeter.add("s3." + kind(request), 1);
    return super.handle(request, response, callback);
  }

  static String kind(Request request) {
    String method = request.getMethod();
    String path = request.getHttpURI().getPath();
    String query = request.getHttpURI().getQuery();
    // "/bucket" or "/bucket/" is a bucket request; anything longer names an object.
    boolean object =
        path != null && path.indexOf('/', 1) > 0 && path.indexOf('/', 1) < path.length() - 1;
    if (!object) {
      return switch (method) {
        case "GET" -> "LIST";
        case "POST" -> query != null && query.contains("delete") ? "DELETE_MULTIPLE" : "POST";
        default -> method + "_BUCKET";
      };
    }
    if (method.equals("PUT") && request.getHeaders().get("x-amz-copy-source") != null) {
      return "COPY";
    }
    return method;
  }
}
