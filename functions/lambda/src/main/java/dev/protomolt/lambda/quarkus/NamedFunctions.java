package dev.protomolt.lambda.quarkus;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import jakarta.inject.Named;
import jakarta.inject.Singleton;

/**
 * One Quarkus stream handler per function name (decision 0654). Each is a singleton, so the
 * handler and its clients are built once per container; {@code QUARKUS_LAMBDA_HANDLER} picks one.
 */
public final class NamedFunctions {

  private NamedFunctions() {}

  @Named("graph-admin")
  @Singleton
  public static class GraphAdmin extends QuarkusFunction implements RequestStreamHandler {
    public GraphAdmin() {
      super("graph-admin");
    }
  }

  @Named("intake")
  @Singleton
  public static class Intake extends QuarkusFunction implements RequestStreamHandler {
    public Intake() {
      super("intake");
    }
  }

  @Named("replay-validate")
  @Singleton
  public static class ReplayValidate extends QuarkusFunction implements RequestStreamHandler {
    public ReplayValidate() {
      super("replay-validate");
    }
  }

  @Named("replay-page")
  @Singleton
  public static class ReplayPage extends QuarkusFunction implements RequestStreamHandler {
    public ReplayPage() {
      super("replay-page");
    }
  }

  @Named("console-api")
  @Singleton
  public static class ConsoleApi extends QuarkusFunction implements RequestStreamHandler {
    public ConsoleApi() {
      super("console-api");
    }
  }

  @Named("dlq-admin")
  @Singleton
  public static class DlqAdmin extends QuarkusFunction implements RequestStreamHandler {
    public DlqAdmin() {
      super("dlq-admin");
    }
  }

  @Named("prepare")
  @Singleton
  public static class Prepare extends QuarkusFunction implements RequestStreamHandler {
    public Prepare() {
      super("prepare");
    }
  }

  @Named("dispatch")
  @Singleton
  public static class Dispatch extends QuarkusFunction implements RequestStreamHandler {
    public Dispatch() {
      super("dispatch");
    }
  }

  @Named("complete")
  @Singleton
  public static class Complete extends QuarkusFunction implements RequestStreamHandler {
    public Complete() {
      super("complete");
    }
  }

  @Named("dlq")
  @Singleton
  public static class Dlq extends QuarkusFunction implements RequestStreamHandler {
    public Dlq() {
      super("dlq");
    }
  }

  @Named("purge")
  @Singleton
  public static class Purge extends QuarkusFunction implements RequestStreamHandler {
    public Purge() {
      super("purge");
    }
  }

  @Named("reclaim")
  @Singleton
  public static class Reclaim extends QuarkusFunction implements RequestStreamHandler {
    public Reclaim() {
      super("reclaim");
    }
  }

  @Named("indexing-ledger")
  @Singleton
  public static class IndexingLedger extends QuarkusFunction implements RequestStreamHandler {
    public IndexingLedger() {
      super("indexing-ledger");
    }
  }

  @Named("settlement")
  @Singleton
  public static class Settlement extends QuarkusFunction implements RequestStreamHandler {
    public Settlement() {
      super("settlement");
    }
  }

  @Named("account-events")
  @Singleton
  public static class AccountEvents extends QuarkusFunction implements RequestStreamHandler {
    public AccountEvents() {
      super("account-events");
    }
  }

  @Named("reconciler")
  @Singleton
  public static class Reconciler extends QuarkusFunction implements RequestStreamHandler {
    public Reconciler() {
      super("reconciler");
    }
  }

  @Named("retention")
  @Singleton
  public static class Retention extends QuarkusFunction implements RequestStreamHandler {
    public Retention() {
      super("retention");
    }
  }

  @Named("migrate")
  @Singleton
  public static class Migrate extends QuarkusFunction implements RequestStreamHandler {
    public Migrate() {
      super("migrate");
    }
  }
}
