package dev.protomolt.localstack.cloud;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.protomolt.db.Migrations;
import dev.protomolt.localstack.sfn.LocalSfnSchema;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * PostgreSQL 17 on loopback: the real server binaries (zonky) as a child process with its data
 * directory under the data folder, kept between runs, and the project's migrations applied on
 * every start so an old data folder is brought up to the current schema.
 */
public final class LocalPostgres implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(LocalPostgres.class.getName());

  public static final String COMPONENT = "PostgreSQL";
  public static final String USER = "postgres";

  /**
   * The ledger's database, named as the stack names the Aurora cluster's ({@code PROTOMOLT_DB_NAME}),
   * so a function configured from the template finds the schema where it would in AWS.
   */
  public static final String DATABASE = "protomolt";

  /**
   * The login the stack's functions and gateway present through RDS Proxy ({@code
   * PROTOMOLT_DB_USER}, the cluster's master user). Loopback connections are trusted, so the IAM
   * token they send as password is accepted as it is (decision 1504).
   */
  public static final String PROXY_USER = "protomolt";

  /** Where the server's TLS certificate and key are kept, on the classpath. */
  private static final String TLS_RESOURCES = "/dev/protomolt/localstack/postgres-tls/";

  private final EmbeddedPostgres postgres;
  private final Path dataDir;
  private final Migrations.MigrationReport migrations;
  private final HikariDataSource pool;

  private LocalPostgres(
      EmbeddedPostgres postgres, Path dataDir, Migrations.MigrationReport migrations) {
    this.postgres = postgres;
    this.dataDir = dataDir;
    this.migrations = migrations;
    // Every statement on an unpooled source forks a PostgreSQL backend; the Step Functions runtime
    // records each history event on its own call, so without a pool the local cloud spends its
    // time forking backends (decision 0861). 20 leaves room under max_connections for the
    // gateway's own pool and for tools.
    HikariConfig config = new HikariConfig();
    config.setDataSource(postgres.getDatabase(USER, DATABASE));
    config.setMaximumPoolSize(20);
    config.setMinimumIdle(2);
    config.setPoolName("local-postgres");
    this.pool = new HikariDataSource(config);
  }

  /** Starts PostgreSQL on {@code port} (0 for a free one) with its cluster in {@code dataDir}. */
  public static LocalPostgres start(Path dataDir, int port) {
    dataDir = dataDir.toAbsolutePath();
    stopLeftoverFromEarlierRun(dataDir);
    int chosen = LoopbackPort.claim(port, COMPONENT, LocalCloudSettings.POSTGRES_PORT_SETTING);
    try {
      Files.createDirectories(dataDir.getParent());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the PostgreSQL data folder " + dataDir, e);
    }
    Path tls = writeTlsFiles(dataDir.resolveSibling(dataDir.getFileName() + "-tls"));
    EmbeddedPostgres postgres;
    try {
      postgres =
          EmbeddedPostgres.builder()
              .setDataDirectory(dataDir)
              // zonky wipes the data directory by default; the local cloud keeps data across
              // restarts.
              .setCleanDataDirectory(false)
              .setPort(chosen)
              // Small enough for a laptop running everything at once; plenty for local workloads.
              .setServerConfig("shared_buffers", "32MB")
              // Each concurrent invocation of a function has its own container and ledger pool of
              // two, as in Lambda (up to eight containers per function, ZipFunctionRuntime): about
              // a dozen functions reach the ledger, so bursts open up to ~200 connections besides
              // this pool and the gateway's. An idle backend costs a few MB; connections close
              // after the pools' idle timeout.
              .setServerConfig("max_connections", "300")
              // RDS Proxy requires TLS and the stack's clients connect with sslmode=require.
              .setServerConfig("ssl", "on")
              .setServerConfig("ssl_cert_file", tls.resolve("server.crt").toString())
              .setServerConfig("ssl_key_file", tls.resolve("server.key").toString())
              .setPGStartupWait(Duration.ofSeconds(30))
              .start();
    } catch (IOException e) {
      throw new IllegalStateException(
          COMPONENT
              + " failed to start on port "
              + chosen
              + " with data in "
              + dataDir
              + ": "
              + e.getMessage(),
          e);
    }
    try {
      // A data folder from before the runtime's tables left the production set (LocalSfnSchema).
      LedgerDatabase.ensure(postgres, DATABASE, PROXY_USER);
      DataSource ledger = postgres.getDatabase(USER, DATABASE);
      LocalSfnSchema.adoptLegacy(ledger);
      Migrations.MigrationReport report = Migrations.apply(ledger);
      return new LocalPostgres(postgres, dataDir, report);
    } catch (RuntimeException e) {
      closeQuietly(postgres);
      throw e;
    }
  }

  public int port() {
    return postgres.getPort();
  }

  public String jdbcUrl() {
    return "jdbc:postgresql://" + LoopbackPort.HOST + ":" + port() + "/" + DATABASE;
  }

  /** A connection source for the {@code postgres} user, which owns the migrated schema. */
  public DataSource dataSource() {
    return pool;
  }

  /** What the migrations did on this start (0 applied when the data folder was current). */
  public Migrations.MigrationReport migrations() {
    return migrations;
  }

  /** The postmaster's process id, read from the pid file PostgreSQL keeps while it runs. */
  public OptionalLong postmasterPid() {
    return postmasterPid(dataDir);
  }

  /**
   * A local cloud killed without running its shutdown hook (SIGKILL, a crash) leaves its
   * postmaster running, detached from the dead JVM and still owning the data folder, so PostgreSQL
   * would refuse to start on it again. Such a leftover — alive, and started on this very folder —
   * is asked to shut down (SIGTERM: its clients died with the old JVM) before this start.
   */
  static void stopLeftoverFromEarlierRun(Path dataDir) {
    OptionalLong pid = postmasterPid(dataDir);
    if (pid.isEmpty()) {
      return;
    }
    Optional<ProcessHandle> leftover =
        ProcessHandle.of(pid.getAsLong())
            .filter(ProcessHandle::isAlive)
            .filter(
                p ->
                    p.info()
                        .commandLine()
                        .map(cmd -> cmd.contains("postgres") && cmd.contains(dataDir.toString()))
                        .orElse(false));
    if (leftover.isEmpty()) {
      // A stale pid file of a process long gone: PostgreSQL itself recovers from that.
      return;
    }
    ProcessHandle postmaster = leftover.get();
    LOG.warning(
        () ->
            "stopping PostgreSQL (pid "
                + postmaster.pid()
                + ") left running on "
                + dataDir
                + " by a local cloud that did not shut down");
    postmaster.destroy();
    try {
      postmaster.onExit().get(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while stopping a leftover PostgreSQL", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException(
          "PostgreSQL (pid "
              + postmaster.pid()
              + ") left running on "
              + dataDir
              + " by an earlier local cloud did not stop within 30 s; stop it with"
              + " `kill "
              + postmaster.pid()
              + "` and start again",
          e);
    }
  }

  static OptionalLong postmasterPid(Path dataDir) {
    Path pidFile = dataDir.resolve("postmaster.pid");
    try {
      if (!Files.exists(pidFile)) {
        return OptionalLong.empty();
      }
      String first = Files.readAllLines(pidFile).getFirst().trim();
      return OptionalLong.of(Long.parseLong(first));
    } catch (IOException | RuntimeException e) {
      return OptionalLong.empty();
    }
  }

  @Override
  public void close() {
    pool.close();
    Optional<ProcessHandle> postmaster =
        postmasterPid().isPresent()
            ? ProcessHandle.of(postmasterPid().getAsLong())
            : Optional.empty();
    try {
      postgres.close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot stop " + COMPONENT + " on port " + port(), e);
    }
    // pg_ctl returns once the pid file is gone, a moment before the postmaster has exited; wait
    // for the exit so "stopped" means no PostgreSQL process is left.
    postmaster.ifPresent(
        process -> {
          try {
            process.onExit().get(10, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(
                COMPONENT
                    + " postmaster "
                    + process.pid()
                    + " did not exit within 10 s of pg_ctl stop",
                e);
          }
        });
  }

  /**
   * Writes the server's certificate and key where PostgreSQL reads them; the key must be readable
   * by its owner only, or the server refuses to start. The pair is a fixed self-signed one for
   * 127.0.0.1: it guards nothing (the server listens on loopback only), it only lets clients that
   * require TLS connect, as they must to RDS Proxy.
   */
  private static Path writeTlsFiles(Path dir) {
    try {
      Files.createDirectories(dir);
      for (String name : new String[] {"server.crt", "server.key"}) {
        Path file = dir.resolve(name);
        try (var in = LocalPostgres.class.getResourceAsStream(TLS_RESOURCES + name)) {
          if (in == null) {
            throw new IllegalStateException("missing classpath resource " + TLS_RESOURCES + name);
          }
          Files.write(file, in.readAllBytes());
        }
        Files.setPosixFilePermissions(
            file,
            java.nio.file.attribute.PosixFilePermissions.fromString(
                name.endsWith(".key") ? "rw-------" : "rw-r--r--"));
      }
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write PostgreSQL's TLS files to " + dir, e);
    }
  }

  private static void closeQuietly(EmbeddedPostgres postgres) {
    try {
      postgres.close();
    } catch (IOException | RuntimeException suppressed) {
      // The start already failed; that failure is the one worth reporting.
    }
  }
}
