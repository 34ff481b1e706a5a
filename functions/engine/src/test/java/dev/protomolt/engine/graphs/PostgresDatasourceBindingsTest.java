package dev.protomolt.engine.graphs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.Statement;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Datasource ownership on real PostgreSQL 17, in the table migration V960 creates. */
class PostgresDatasourceBindingsTest {

  private DataSource db;
  private PostgresDatasourceBindings bindings;

  @BeforeEach
  void empty() throws Exception {
    db = EmbeddedDatabase.migrated();
    try (Connection c = db.getConnection();
        Statement s = c.createStatement()) {
      s.execute("TRUNCATE datasource_grants, datasource_bindings");
    }
    bindings = new PostgresDatasourceBindings(db);
  }

  @Test
  void aBoundDatasourceNamesItsOwnerAndAnUnknownOneNoOne() {
    bindings.bind("uploads", "acme");
    assertThat(bindings.datasourceAccount("uploads")).contains("acme");
    assertThat(bindings.datasourceAccount("elsewhere")).isEmpty();
  }

  @Test
  void rebindingToTheSameAccountIsANoOpAndAnotherAccountIsRefused() {
    bindings.bind("uploads", "acme");
    bindings.bind("uploads", "acme");
    assertThatThrownBy(() -> bindings.bind("uploads", "globex"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "datasourceId: 'uploads' already belongs to account 'acme', not 'globex'; a datasource"
                + " never changes owner");
    assertThat(bindings.datasourceAccount("uploads")).contains("acme");
  }

  @Test
  void aForgettableDatasourceStaysSoAndOnlyItsOwnerMayDeclareIt() {
    bindings.bind("private", "acme");
    bindings.bind("public", "acme");
    assertThat(bindings.forgettable("private")).isFalse();
    bindings.markForgettable("private", "acme");
    bindings.markForgettable("private", "acme");
    // Binding again, as a later account event does, never makes it ordinary again.
    bindings.bind("private", "acme");
    assertThat(bindings.forgettable("private")).isTrue();
    assertThat(bindings.forgettable("public")).isFalse();
    assertThat(bindings.forgettable("unbound")).isFalse();
    assertThatThrownBy(() -> bindings.markForgettable("public", "globex"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "forgettableDatasourceIds: 'public' is not a datasource of account 'globex'; bind it"
                + " to the account first");
    assertThat(bindings.forgettable("public")).isFalse();
  }

  @Test
  void blankIdsAreRefusedNamingTheField() {
    assertThatThrownBy(() -> bindings.bind(" ", "acme"))
        .hasMessage("datasourceId: must be non-blank, got ' '");
    assertThatThrownBy(() -> bindings.bind("uploads", ""))
        .hasMessage("accountId: must be non-blank, got ''");
    assertThat(bindings.datasourceAccount("uploads")).isEmpty();
  }

  @Test
  void rowsWrittenByTheLocalPlatformAreReadAsIs() throws Exception {
    // The local platform binds through this same class; AWS reads the same table.
    try (Connection c = db.getConnection();
        Statement s = c.createStatement()) {
      s.execute(
          "INSERT INTO datasource_bindings (datasource_id, account_id) VALUES ('drop', 'initech')");
    }
    assertThat(bindings.datasourceAccount("drop")).contains("initech");
  }
}
