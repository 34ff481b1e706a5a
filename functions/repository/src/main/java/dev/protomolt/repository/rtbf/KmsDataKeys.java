package dev.protomolt.repository.rtbf;

import dev.protomolt.core.rtbf.DataKeyGoneException;
import dev.protomolt.core.rtbf.DataKeys;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.kms.KmsClient;
import software.amazon.awssdk.services.kms.model.DataKeySpec;
import software.amazon.awssdk.services.kms.model.GenerateDataKeyResponse;

/**
 * {@link DataKeys} on KMS (decision 1750): a key is a KMS data key generated under the platform's
 * key ({@code PROTOMOLT_DATA_KEY_ARN}); its wrapped form is a row of {@code rtbf_data_keys} by key
 * id, which every hop and the gateway already reach; opening is KMS Decrypt of that row; destroying
 * deletes the row, so the ciphertext it sealed can no longer be opened. The plaintext key is never
 * stored.
 */
public final class KmsDataKeys implements DataKeys {

  private final KmsClient kms;
  private final String keyArn;
  private final DataSource db;

  public KmsDataKeys(KmsClient kms, String keyArn, DataSource db) {
    this.kms = Objects.requireNonNull(kms, "kms");
    this.keyArn = Objects.requireNonNull(keyArn, "keyArn");
    this.db = Objects.requireNonNull(db, "db");
  }

  @Override
  public byte[] create(String keyId) {
    Optional<byte[]> existing = wrapped(keyId);
    if (existing.isPresent()) {
      return unwrap(existing.get());
    }
    GenerateDataKeyResponse generated =
        kms.generateDataKey(b -> b.keyId(keyArn).keySpec(DataKeySpec.AES_256));
    try (Connection c = db.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "INSERT INTO rtbf_data_keys (key_id, kms_key_arn, wrapped_key) VALUES (?, ?, ?)"
                    + " ON CONFLICT (key_id) DO NOTHING")) {
      s.setString(1, keyId);
      s.setString(2, keyArn);
      s.setBytes(3, generated.ciphertextBlob().asByteArray());
      if (s.executeUpdate() == 1) {
        return generated.plaintext().asByteArray();
      }
    } catch (SQLException e) {
      throw new IllegalStateException("recording data key '" + keyId + "' failed: " + e, e);
    }
    // A concurrent intake of the same document recorded its key first: that one seals.
    return open(keyId);
  }

  @Override
  public byte[] open(String keyId) {
    return unwrap(wrapped(keyId).orElseThrow(() -> new DataKeyGoneException(keyId)));
  }

  @Override
  public void destroy(String keyId) {
    try (Connection c = db.getConnection();
        PreparedStatement s = c.prepareStatement("DELETE FROM rtbf_data_keys WHERE key_id = ?")) {
      s.setString(1, keyId);
      s.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException("destroying data key '" + keyId + "' failed: " + e, e);
    }
  }

  private byte[] unwrap(byte[] wrapped) {
    return kms.decrypt(b -> b.keyId(keyArn).ciphertextBlob(SdkBytes.fromByteArray(wrapped)))
        .plaintext()
        .asByteArray();
  }

  private Optional<byte[]> wrapped(String keyId) {
    try (Connection c = db.getConnection();
        PreparedStatement s =
            c.prepareStatement("SELECT wrapped_key FROM rtbf_data_keys WHERE key_id = ?")) {
      s.setString(1, keyId);
      try (ResultSet r = s.executeQuery()) {
        return r.next() ? Optional.of(r.getBytes(1)) : Optional.empty();
      }
    } catch (SQLException e) {
      throw new IllegalStateException("reading data key '" + keyId + "' failed: " + e, e);
    }
  }
}
