package dev.protomolt.localstack.sfn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.db.Migrations;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.StateMachineListItem;

/**
 * The runtime's tables come from its own migration folder, not from the production set, and a
 * database made before they moved (its production history records them as migration 450) keeps
 * its state machines and opens under both histories.
 */
class LocalSfnSchemaTest {

  private static final String PASS =
      "{\"StartAt\":\"P\",\"States\":{\"P\":{\"Type\":\"Pass\"," + "\"End\":true}}}";

  @Test
  void productionMigrationsCreateNoRuntimeTableAndTheRuntimeCreatesItsOwn() throws SQLException {
    DataSource ds = SfnFixture.freshDatabase();
    Migrations.apply(ds);
    assertThat(tables(ds)).noneMatch(t -> t.startsWith("sfn_"));

    LocalStepFunctions runtime =
        LocalStepFunctions.start(0, ds, new ScriptedLambdas(), new FakeClock(SfnFixture.EPOCH));
    runtime.close();
    assertThat(tables(ds))
        .contains(
            "sfn_state_machines",
            "sfn_versions",
            "sfn_aliases",
            "sfn_executions",
            "sfn_history",
            "sfn_task_tokens",
            LocalSfnSchema.HISTORY_TABLE);
  }

  @Test
  void anOlderDataFolderKeepsItsStateMachinesAndOpensUnderBothHistories() throws SQLException {
    DataSource ds = SfnFixture.freshDatabase();
    String arn;
    try (LocalStepFunctions runtime =
            LocalStepFunctions.start(
                0, ds, new ScriptedLambdas(), new FakeClock(SfnFixture.EPOCH));
        SfnClient client = SfnFixture.client(runtime.endpoint())) {
      arn =
          client
              .createStateMachine(
                  b -> b.name("kept").definition(PASS).roleArn("arn:aws:iam::000000000000:role/t"))
              .stateMachineArn();
    }
    // Make it look as the data folder did before the move: the tables recorded as production 450.
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement()) {
      s.execute("DROP TABLE " + LocalSfnSchema.HISTORY_TABLE);
      s.execute(
          "INSERT INTO flyway_schema_history (installed_rank, version, description, type,"
              + " script, checksum, installed_by, execution_time, success) VALUES ((SELECT"
              + " max(installed_rank) + 1 FROM flyway_schema_history), '450', 'local sfn', 'SQL',"
              + " 'V450__local_sfn.sql', 1, 'postgres', 1, true)");
    }
    assertThatThrownBy(() -> Migrations.apply(ds))
        .as("production Flyway alone refuses the old history")
        .hasMessageContaining("450");

    try (LocalStepFunctions runtime =
            LocalStepFunctions.start(
                0, ds, new ScriptedLambdas(), new FakeClock(SfnFixture.EPOCH));
        SfnClient client = SfnFixture.client(runtime.endpoint())) {
      assertThat(client.listStateMachines().stateMachines())
          .extracting(StateMachineListItem::stateMachineArn)
          .containsExactly(arn);
    }
    assertThat(Migrations.apply(ds).applied()).isZero();
    assertThat(LocalSfnSchema.adoptLegacy(ds)).as("nothing left to adopt").isFalse();
  }

  private static List<String> tables(DataSource ds) throws SQLException {
    List<String> names = new ArrayList<>();
    try (Connection c = ds.getConnection();
        ResultSet rs = c.getMetaData().getTables(null, "public", "%", new String[] {"TABLE"})) {
      while (rs.next()) {
        names.add(rs.getString("TABLE_NAME"));
      }
    }
    return names;
  }
}
