package dev.protomolt.cdk.constructs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.aws_apigatewayv2_authorizers.HttpIamAuthorizer;
import software.amazon.awscdk.aws_apigatewayv2_integrations.HttpLambdaIntegration;
import software.amazon.awscdk.services.apigatewayv2.CorsHttpMethod;
import software.amazon.awscdk.services.apigatewayv2.CorsPreflightOptions;
import software.amazon.awscdk.services.apigatewayv2.HttpApi;
import software.amazon.awscdk.services.cloudfront.AllowedMethods;
import software.amazon.awscdk.services.cloudfront.BehaviorOptions;
import software.amazon.awscdk.services.cloudfront.CachePolicy;
import software.amazon.awscdk.services.cloudfront.Distribution;
import software.amazon.awscdk.services.cloudfront.ErrorResponse;
import software.amazon.awscdk.services.cloudfront.OriginRequestPolicy;
import software.amazon.awscdk.services.cloudfront.ViewerProtocolPolicy;
import software.amazon.awscdk.services.cloudfront.origins.HttpOrigin;
import software.amazon.awscdk.services.cloudfront.origins.S3BucketOrigin;
import software.amazon.awscdk.services.lambda.IFunction;
import software.amazon.awscdk.services.s3.BlockPublicAccess;
import software.amazon.awscdk.services.s3.Bucket;
import software.amazon.awscdk.services.s3.BucketEncryption;
import software.amazon.awscdk.services.s3.deployment.BucketDeployment;
import software.amazon.awscdk.services.s3.deployment.CacheControl;
import software.amazon.awscdk.services.s3.deployment.Source;
import software.constructs.Construct;

/**
 * The console in AWS (decision 1770): its built site in a private bucket that only CloudFront
 * reads (origin access control), and the {@code console-api} function behind an HTTP API whose
 * every route is IAM-authorized. CloudFront serves the site and forwards {@code /api/*} to the
 * HTTP API uncached, so the page calls the API on its own origin exactly as it does locally.
 * The stack uploads the built site itself, with the page's settings ({@value #PAGE_SETTINGS})
 * naming the API (decision 1772) and how operators sign in ({@link ConsoleSignIn}, decision
 * 1752).
 */
public final class ConsoleSite extends Construct {

  /** The page's settings, written beside {@code index.html}; the page reads it when it starts. */
  public static final String PAGE_SETTINGS = "config.json";

  /**
   * @param namePrefix the environment prefix, e.g. {@code protomolt-dev}
   * @param api the console-api function (its alias)
   * @param retain whether the assets bucket outlives the stack
   * @param site the console's built site (a directory with {@code index.html}), uploaded to the
   *     assets bucket on every deploy
   */
  public record Props(
      String namePrefix,
      IFunction api,
      boolean retain,
      Path site,
      java.util.List<String> operatorAccounts) {
    public Props {
      if (namePrefix == null || namePrefix.isBlank()) {
        throw new IllegalArgumentException("console: namePrefix is required");
      }
      if (api == null) {
        throw new IllegalArgumentException("console: the console-api function is required");
      }
      if (site == null || !Files.isRegularFile(site.resolve("index.html"))) {
        throw new IllegalArgumentException(
            "console: site must be the console's built site, a directory with index.html, was "
                + site);
      }
      operatorAccounts =
          operatorAccounts == null ? java.util.List.of() : java.util.List.copyOf(operatorAccounts);
    }

    /** Platform operators only: no account has a sign-in group of its own. */
    public Props(String namePrefix, IFunction api, boolean retain, Path site) {
      this(namePrefix, api, retain, site, java.util.List.of());
    }
  }

  private final Bucket assets;
  private final HttpApi httpApi;
  private final Distribution distribution;
  private final ConsoleSignIn signIn;

  public ConsoleSite(Construct scope, String id, Props props) {
    super(scope, id);
    this.assets =
        Bucket.Builder.create(this, "Assets")
            .blockPublicAccess(BlockPublicAccess.BLOCK_ALL)
            .encryption(BucketEncryption.S3_MANAGED)
            .enforceSsl(true)
            .removalPolicy(props.retain() ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY)
            .build();
    this.httpApi =
        HttpApi.Builder.create(this, "Api")
            .apiName(props.namePrefix() + "-console")
            .description("The console's JSON API: every route IAM-authorized")
            .defaultAuthorizer(new HttpIamAuthorizer())
            .defaultIntegration(new HttpLambdaIntegration("ConsoleApi", props.api()))
            // The signed-in page calls the API's own endpoint (its SigV4 signature names that
            // host, which CloudFront would not pass on), so the API answers CORS preflights.
            // Any origin: the API trusts only the signature, never a cookie, so another origin
            // gains nothing a signed caller does not already have (decision 1752).
            .corsPreflight(
                CorsPreflightOptions.builder()
                    .allowOrigins(List.of("*"))
                    .allowMethods(
                        List.of(CorsHttpMethod.GET, CorsHttpMethod.POST, CorsHttpMethod.PUT))
                    .allowHeaders(
                        List.of(
                            "authorization",
                            "content-type",
                            "x-amz-date",
                            "x-amz-security-token",
                            "x-amz-content-sha256"))
                    .maxAge(Duration.minutes(10))
                    .build())
            .build();
    this.signIn =
        new ConsoleSignIn(
            this,
            "SignIn",
            new ConsoleSignIn.Props(
                props.namePrefix(), httpApi, props.retain(), props.operatorAccounts()));
    // CloudFront wants the API's host, <api id>.execute-api.<region>.<url suffix>; built from the
    // id
    // rather than split out of the endpoint URL, so the local cloud can resolve it too.
    Stack stack = Stack.of(this);
    String apiHost =
        httpApi.getApiId() + ".execute-api." + stack.getRegion() + "." + stack.getUrlSuffix();
    this.distribution =
        Distribution.Builder.create(this, "Distribution")
            .comment(props.namePrefix() + " console")
            .defaultRootObject("index.html")
            .defaultBehavior(
                BehaviorOptions.builder()
                    .origin(S3BucketOrigin.withOriginAccessControl(assets))
                    .viewerProtocolPolicy(ViewerProtocolPolicy.REDIRECT_TO_HTTPS)
                    .build())
            .additionalBehaviors(
                java.util.Map.of(
                    "/api/*",
                    BehaviorOptions.builder()
                        .origin(HttpOrigin.Builder.create(apiHost).build())
                        .viewerProtocolPolicy(ViewerProtocolPolicy.HTTPS_ONLY)
                        .allowedMethods(AllowedMethods.ALLOW_ALL)
                        .cachePolicy(CachePolicy.CACHING_DISABLED)
                        .originRequestPolicy(OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER)
                        .build()))
            // The console routes in the browser: a path that is no asset gets the page.
            .errorResponses(
                List.of(
                    ErrorResponse.builder()
                        .httpStatus(403)
                        .responseHttpStatus(200)
                        .responsePagePath("/index.html")
                        .ttl(Duration.seconds(0))
                        .build()))
            .build();
    // The built site goes to the bucket with every deploy (CDK stages the directory as an asset
    // at synth, offline), with the page's settings beside it: the API's path on this origin and
    // the HTTP API's own endpoint for SigV4 clients. Files a newer build no longer has are
    // removed. No CloudFront invalidation: its grant would be cloudfront:CreateInvalidation on
    // every distribution ("*"); every object is served no-cache instead, so CloudFront asks the
    // bucket again and a deploy shows at once (decision 1772).
    BucketDeployment.Builder.create(this, "Site")
        .sources(
            List.of(
                Source.asset(props.site().toString()),
                Source.jsonData(
                    PAGE_SETTINGS,
                    java.util.Map.of(
                        "api", "api/",
                        "apiEndpoint", httpApi.getApiEndpoint(),
                        "environment", props.namePrefix(),
                        "signIn", signIn.pageSettings()))))
        .destinationBucket(assets)
        .cacheControl(List.of(CacheControl.noCache()))
        .prune(true)
        .memoryLimit(256)
        .build();
  }

  public Bucket assets() {
    return assets;
  }

  public HttpApi httpApi() {
    return httpApi;
  }

  /** The operators' sign-in: the user pool, identity pool and the role it hands out. */
  public ConsoleSignIn signIn() {
    return signIn;
  }

  public Distribution distribution() {
    return distribution;
  }
}
