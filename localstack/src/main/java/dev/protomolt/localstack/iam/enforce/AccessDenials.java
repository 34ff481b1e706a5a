package dev.protomolt.localstack.iam.enforce;

import java.util.UUID;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbRequest;
import software.amazon.awssdk.services.kms.model.KmsException;
import software.amazon.awssdk.services.kms.model.KmsRequest;
import software.amazon.awssdk.services.lambda.model.LambdaException;
import software.amazon.awssdk.services.lambda.model.LambdaRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Request;
import software.amazon.awssdk.services.sfn.model.SfnException;
import software.amazon.awssdk.services.sfn.model.SfnRequest;

/**
 * The error each service returns for a denied call, built as the SDK's own exception for that
 * service, so code catching {@code S3Exception} or checking {@code awsErrorDetails().errorCode()}
 * sees what it would see in AWS: S3 answers 403 {@code AccessDenied}; Step Functions and DynamoDB
 * (AWS JSON protocol) 400 {@code AccessDeniedException}; Lambda 403 {@code AccessDeniedException}.
 */
final class AccessDenials {

  private AccessDenials() {}

  static AwsServiceException of(SdkRequest request, String message) {
    return switch (request) {
      case S3Request _ ->
          build(S3Exception.builder(), "S3", 403, "Forbidden", "AccessDenied", message);
      case SfnRequest _ ->
          build(
              SfnException.builder(), "SFN", 400, "Bad Request", "AccessDeniedException", message);
      case DynamoDbRequest _ ->
          build(
              DynamoDbException.builder(),
              "DynamoDb",
              400,
              "Bad Request",
              "AccessDeniedException",
              message);
      case KmsRequest _ ->
          build(
              KmsException.builder(), "Kms", 400, "Bad Request", "AccessDeniedException", message);
      case LambdaRequest _ ->
          build(
              LambdaException.builder(),
              "Lambda",
              403,
              "Forbidden",
              "AccessDeniedException",
              message);
      default ->
          build(
              AwsServiceException.builder(),
              request.getClass().getSimpleName(),
              403,
              "Forbidden",
              "AccessDenied",
              message);
    };
  }

  private static AwsServiceException build(
      AwsServiceException.Builder builder,
      String service,
      int status,
      String statusText,
      String code,
      String message) {
    String requestId = UUID.randomUUID().toString();
    return builder
        .message(message)
        .statusCode(status)
        .requestId(requestId)
        .awsErrorDetails(
            AwsErrorDetails.builder()
                .errorCode(code)
                .errorMessage(message)
                .serviceName(service)
                .sdkHttpResponse(
                    SdkHttpResponse.builder()
                        .statusCode(status)
                        .statusText(statusText)
                        .putHeader("x-amzn-RequestId", requestId)
                        .build())
                .build())
        .build();
  }
}
