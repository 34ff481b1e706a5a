package dev.protomolt.localstack.lb;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The local cloud's own certificate authority and the server certificate its load balancer
 * presents, generated on first start into the data folder and reused afterwards, so a client
 * pointed at {@link #caFile()} keeps trusting the same front across restarts (decision 1745).
 *
 * <p>The CA is the only thing a client trusts; its private key is not kept, so nothing else can
 * ever be signed by it. The server certificate names {@code localhost} and {@code 127.0.0.1}.
 */
public final class LocalCertificates {

  /** The CA certificate clients trust, PEM, under the folder given to {@link #ensure}. */
  public static final String CA_FILE = "gateway-ca.pem";

  private static final String KEYSTORE_FILE = "gateway-server.p12";
  private static final String ALIAS = "gateway";
  // The keystore never leaves the data folder and is only read by this JVM: a fixed password.
  private static final char[] PASSWORD = "protomolt-local".toCharArray();
  private static final Duration VALIDITY = Duration.ofDays(825);

  private final Path caFile;
  private final KeyStore keyStore;

  private LocalCertificates(Path caFile, KeyStore keyStore) {
    this.caFile = caFile;
    this.keyStore = keyStore;
  }

  /** Where {@link #ensure} keeps the CA certificate under {@code dir}, whether or not it exists. */
  public static Path caFile(Path dir) {
    return dir.toAbsolutePath().resolve(CA_FILE);
  }

  /**
   * The certificates under {@code dir}: read when both files are there and the server certificate
   * is still valid, else generated anew (a new CA, which clients must be given again).
   */
  public static synchronized LocalCertificates ensure(Path dir) {
    Path ca = caFile(dir);
    Path store = dir.toAbsolutePath().resolve(KEYSTORE_FILE);
    try {
      if (Files.isRegularFile(ca) && Files.isRegularFile(store)) {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
          ks.load(in, PASSWORD);
        }
        X509Certificate server = (X509Certificate) ks.getCertificate(ALIAS);
        if (server != null
            && server.getNotAfter().toInstant().isAfter(Instant.now().plus(Duration.ofDays(1)))) {
          return new LocalCertificates(ca, ks);
        }
      }
      Files.createDirectories(dir);
      return generate(ca, store);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot keep the local certificates in " + dir, e);
    } catch (GeneralSecurityException | OperatorCreationException e) {
      throw new IllegalStateException("cannot generate the local certificates: " + e, e);
    }
  }

  /** The CA certificate (PEM) a client trusts to reach the local load balancer. */
  public Path caFile() {
    return caFile;
  }

  /** A TLS context presenting the server certificate (with the CA in its chain). */
  public SSLContext serverContext() {
    try {
      KeyManagerFactory kmf =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(keyStore, PASSWORD);
      SSLContext tls = SSLContext.getInstance("TLS");
      tls.init(kmf.getKeyManagers(), null, new SecureRandom());
      return tls;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot build the local TLS context: " + e, e);
    }
  }

  private static LocalCertificates generate(Path caPath, Path storePath)
      throws GeneralSecurityException, OperatorCreationException, IOException {
    KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
    gen.initialize(new ECGenParameterSpec("secp256r1"));
    KeyPair caKeys = gen.generateKeyPair();
    KeyPair serverKeys = gen.generateKeyPair();
    Instant now = Instant.now();
    Date from = Date.from(now.minus(Duration.ofHours(1)));
    Date until = Date.from(now.plus(VALIDITY));
    X500Name caName = new X500Name("CN=ProtoMolt local CA " + now.getEpochSecond());
    SecureRandom random = new SecureRandom();

    X509v3CertificateBuilder caBuilder =
        new JcaX509v3CertificateBuilder(
            caName, new BigInteger(64, random), from, until, caName, caKeys.getPublic());
    caBuilder.addExtension(Extension.basicConstraints, true, new BasicConstraints(0));
    caBuilder.addExtension(
        Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
    X509Certificate caCert = sign(caBuilder, caKeys);

    X509v3CertificateBuilder serverBuilder =
        new JcaX509v3CertificateBuilder(
            caName,
            new BigInteger(64, random),
            from,
            until,
            new X500Name("CN=localhost"),
            serverKeys.getPublic());
    serverBuilder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
    serverBuilder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
    serverBuilder.addExtension(
        Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
    serverBuilder.addExtension(
        Extension.subjectAlternativeName,
        false,
        new GeneralNames(
            new GeneralName[] {
              new GeneralName(GeneralName.dNSName, "localhost"),
              new GeneralName(GeneralName.iPAddress, "127.0.0.1")
            }));
    X509Certificate serverCert = sign(serverBuilder, caKeys);

    KeyStore ks = KeyStore.getInstance("PKCS12");
    ks.load(null, null);
    ks.setKeyEntry(
        ALIAS, serverKeys.getPrivate(), PASSWORD, new Certificate[] {serverCert, caCert});
    // Written beside and moved, so a reader never sees half a file.
    Path storeTmp = storePath.resolveSibling(storePath.getFileName() + ".tmp");
    try (OutputStream out = Files.newOutputStream(storeTmp)) {
      ks.store(out, PASSWORD);
    }
    Path caTmp = caPath.resolveSibling(caPath.getFileName() + ".tmp");
    Files.writeString(caTmp, pem(caCert), StandardCharsets.US_ASCII);
    Files.move(storeTmp, storePath, StandardCopyOption.REPLACE_EXISTING);
    Files.move(caTmp, caPath, StandardCopyOption.REPLACE_EXISTING);
    return new LocalCertificates(caPath, ks);
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair issuer)
      throws OperatorCreationException, GeneralSecurityException {
    return new JcaX509CertificateConverter()
        .getCertificate(
            builder.build(
                new JcaContentSignerBuilder("SHA256withECDSA").build(issuer.getPrivate())));
  }

  private static String pem(X509Certificate cert) throws GeneralSecurityException {
    return "-----BEGIN CERTIFICATE-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
            .encodeToString(cert.getEncoded())
        + "\n-----END CERTIFICATE-----\n";
  }
}
