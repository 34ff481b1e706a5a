package dev.protomolt.localstack.kms;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.UUID;
import java.util.regex.Pattern;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The KMS operations the platform calls, as the local cloud answers them over KMS's JSON protocol
 * ({@code X-Amz-Target: TrentService.<op>}) on the local AWS API port: {@code CreateKey}, {@code
 * GenerateDataKey} and {@code Decrypt}. Each key is 32 random bytes under {@code <data>/kms/};
 * a data key is wrapped with AES-256-GCM under it, its ciphertext blob naming the key, so the
 * adapter the functions use in AWS runs unchanged here (decision 1751). Nothing else of KMS (key
 * policies, grants, aliases, rotation) is answered.
 */
public final class LocalKms {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TARGET_PREFIX = "TrentService.";
  private static final Pattern KEY_ID =
      Pattern.compile("[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}");
  private static final int NONCE_BYTES = 12;

  private final Path dir;
  private final String region;
  private final String accountId;
  private final SecureRandom random = new SecureRandom();

  public LocalKms(Path dataDir, String region, String accountId) {
    this.dir = dataDir.toAbsolutePath().resolve("kms");
    this.region = region;
    this.accountId = accountId;
  }

  /** Whether {@code exchange} is a KMS call. */
  public static boolean handles(HttpExchange exchange) {
    String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
    return target != null && target.startsWith(TARGET_PREFIX);
  }

  /** The key's ARN, as {@code Fn::GetAtt Key.Arn} names it. */
  public String arn(String keyId) {
    return "arn:aws:kms:" + region + ":" + accountId + ":key/" + keyId;
  }

  /** Creates the key {@code keyId} (a UUID) unless it exists, as a deployed stack's key. */
  public synchronized void ensureKey(String keyId) {
    if (!KEY_ID.matcher(keyId).matches()) {
      throw new IllegalArgumentException("a KMS key id must be a UUID, got '" + keyId + "'");
    }
    Path file = dir.resolve(keyId);
    if (Files.exists(file)) {
      return;
    }
    byte[] material = new byte[32];
    random.nextBytes(material);
    try {
      Files.createDirectories(dir);
      Files.write(file, material);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot keep KMS key " + keyId + " under " + dir, e);
    }
  }

  /** Answers one request and closes the exchange. */
  public void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
      byte[] request;
      try (InputStream in = exchange.getRequestBody()) {
        request = in.readAllBytes();
      }
      Answer answer = answer(target.substring(TARGET_PREFIX.length()), request);
      byte[] body = JSON.writeValueAsBytes(answer.body());
      exchange.getResponseHeaders().set("Content-Type", "application/x-amz-json-1.1");
      exchange.getResponseHeaders().set("x-amzn-RequestId", UUID.randomUUID().toString());
      if (answer.status() != 200) {
        exchange
            .getResponseHeaders()
            .set("x-amzn-ErrorType", answer.body().path("__type").asText());
      }
      exchange.sendResponseHeaders(answer.status(), body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  /** An HTTP status and the JSON body KMS would send. */
  record Answer(int status, JsonNode body) {}

  Answer answer(String operation, byte[] request) {
    try {
      JsonNode in = request.length == 0 ? JSON.createObjectNode() : JSON.readTree(request);
      return switch (operation) {
        case "CreateKey" -> createKey();
        case "GenerateDataKey" -> generateDataKey(in);
        case "Decrypt" -> decrypt(in);
        default ->
            error(
                400,
                "UnknownOperationException",
                "the local KMS answers CreateKey, GenerateDataKey and Decrypt, not " + operation);
      };
    } catch (IOException e) {
      return error(400, "SerializationException", "request body is not JSON: " + e.getMessage());
    } catch (Refused e) {
      return error(400, e.code, e.getMessage());
    }
  }

  private Answer createKey() {
    String keyId = UUID.randomUUID().toString();
    ensureKey(keyId);
    ObjectNode out = JSON.createObjectNode();
    ObjectNode meta = out.putObject("KeyMetadata");
    meta.put("KeyId", keyId);
    meta.put("Arn", arn(keyId));
    meta.put("AWSAccountId", accountId);
    meta.put("Enabled", true);
    meta.put("KeyState", "Enabled");
    meta.put("KeySpec", "SYMMETRIC_DEFAULT");
    meta.put("KeyUsage", "ENCRYPT_DECRYPT");
    return new Answer(200, out);
  }

  private Answer generateDataKey(JsonNode in) {
    String keyId = keyId(in.path("KeyId").asText(""));
    String spec = in.path("KeySpec").asText("");
    int bytes = in.path("NumberOfBytes").asInt(0);
    if (spec.equals("AES_256")) {
      bytes = 32;
    } else if (spec.equals("AES_128")) {
      bytes = 16;
    } else if (bytes < 1 || bytes > 1024) {
      throw new Refused(
          "ValidationException", "KeySpec must be AES_256 or AES_128, or NumberOfBytes 1-1024");
    }
    byte[] plaintext = new byte[bytes];
    random.nextBytes(plaintext);
    byte[] keyIdBytes = keyId.getBytes(StandardCharsets.US_ASCII);
    byte[] nonce = new byte[NONCE_BYTES];
    random.nextBytes(nonce);
    byte[] sealed = crypt(Cipher.ENCRYPT_MODE, keyId, nonce, plaintext);
    ByteBuffer blob = ByteBuffer.allocate(1 + keyIdBytes.length + NONCE_BYTES + sealed.length);
    blob.put((byte) keyIdBytes.length).put(keyIdBytes).put(nonce).put(sealed);
    ObjectNode out = JSON.createObjectNode();
    out.put("CiphertextBlob", Base64.getEncoder().encodeToString(blob.array()));
    out.put("Plaintext", Base64.getEncoder().encodeToString(plaintext));
    out.put("KeyId", arn(keyId));
    return new Answer(200, out);
  }

  private Answer decrypt(JsonNode in) {
    byte[] blob;
    try {
      blob = Base64.getDecoder().decode(in.path("CiphertextBlob").asText(""));
    } catch (IllegalArgumentException e) {
      throw new Refused("InvalidCiphertextException", "CiphertextBlob is not base64");
    }
    if (blob.length < 1 + 36 + NONCE_BYTES + 16 || (blob[0] & 0xff) != 36) {
      throw new Refused("InvalidCiphertextException", "CiphertextBlob was not made by this KMS");
    }
    String keyId = new String(blob, 1, 36, StandardCharsets.US_ASCII);
    if (in.hasNonNull("KeyId") && !keyId(in.get("KeyId").asText()).equals(keyId)) {
      throw new Refused(
          "IncorrectKeyException", "the ciphertext was not encrypted under the KeyId given");
    }
    byte[] nonce = java.util.Arrays.copyOfRange(blob, 37, 37 + NONCE_BYTES);
    byte[] sealed = java.util.Arrays.copyOfRange(blob, 37 + NONCE_BYTES, blob.length);
    byte[] plaintext = crypt(Cipher.DECRYPT_MODE, keyId(keyId), nonce, sealed);
    ObjectNode out = JSON.createObjectNode();
    out.put("Plaintext", Base64.getEncoder().encodeToString(plaintext));
    out.put("KeyId", arn(keyId));
    out.put("EncryptionAlgorithm", "SYMMETRIC_DEFAULT");
    return new Answer(200, out);
  }

  /** The key id in an id or a key ARN, which must exist. */
  private String keyId(String given) {
    String id = given.startsWith("arn:") ? given.substring(given.lastIndexOf('/') + 1) : given;
    if (id.isEmpty()) {
      throw new Refused("ValidationException", "KeyId is required");
    }
    if (!KEY_ID.matcher(id).matches() || !Files.exists(dir.resolve(id))) {
      throw new Refused("NotFoundException", "Key '" + arn(id) + "' does not exist");
    }
    return id;
  }

  private byte[] crypt(int mode, String keyId, byte[] nonce, byte[] input) {
    try {
      byte[] material = Files.readAllBytes(dir.resolve(keyId));
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(mode, new SecretKeySpec(material, "AES"), new GCMParameterSpec(128, nonce));
      cipher.updateAAD(keyId.getBytes(StandardCharsets.US_ASCII));
      return cipher.doFinal(input);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read KMS key " + keyId, e);
    } catch (javax.crypto.AEADBadTagException e) {
      throw new Refused("InvalidCiphertextException", "CiphertextBlob does not decrypt");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-256-GCM must be available in every JDK", e);
    }
  }

  private static Answer error(int status, String code, String message) {
    ObjectNode body = JSON.createObjectNode();
    body.put("__type", code);
    body.put("message", message);
    return new Answer(status, body);
  }

  /** A request KMS refuses, with its error code. */
  private static final class Refused extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final String code;

    Refused(String code, String message) {
      super(message);
      this.code = code;
    }
  }
}
