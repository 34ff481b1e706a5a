package dev.protomolt.localstack.sfn.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import javax.sql.DataSource;

/** State machines, their published versions and their aliases. */
public final class StateMachineStore {

  private final Database db;

  public StateMachineStore(DataSource dataSource) {
    this.db = new Database(dataSource);
  }

  public record StateMachine(
      String arn,
      String name,
      String definition,
      String roleArn,
      String description,
      String revisionId,
      Instant createdAt,
      Instant updatedAt) {}

  public record Version(
      String arn,
      String stateMachineArn,
      int version,
      String definition,
      String roleArn,
      String revisionId,
      String description,
      Instant createdAt) {}

  public record Alias(
      String arn,
      String stateMachineArn,
      String name,
      String description,
      String routing,
      Instant createdAt,
      Instant updatedAt) {}

  /** Inserts; false when a state machine of that name exists. */
  public boolean insert(StateMachine m) {
    try {
      db.update(
          "INSERT INTO sfn_state_machines (arn, name, definition, role_arn, type, "
              + "description, revision_id, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?)",
          m.arn(),
          m.name(),
          m.definition(),
          m.roleArn(),
          "STANDARD",
          m.description(),
          m.revisionId(),
          m.createdAt(),
          m.updatedAt());
      return true;
    } catch (Database.StoreException e) {
      if (e.uniqueViolation()) {
        return false;
      }
      throw e;
    }
  }

  public void update(StateMachine m) {
    db.update(
        "UPDATE sfn_state_machines SET definition = ?, role_arn = ?, revision_id = ?, "
            + "updated_at = ? WHERE arn = ?",
        m.definition(),
        m.roleArn(),
        m.revisionId(),
        m.updatedAt(),
        m.arn());
  }

  public StateMachine find(String arn) {
    return db.one(
        "SELECT * FROM sfn_state_machines WHERE arn = ?",
        rs ->
            new StateMachine(
                rs.getString("arn"),
                rs.getString("name"),
                rs.getString("definition"),
                rs.getString("role_arn"),
                rs.getString("description"),
                rs.getString("revision_id"),
                Database.instant(rs, "created_at"),
                Database.instant(rs, "updated_at")),
        arn);
  }

  public List<StateMachine> list() {
    return db.query(
        "SELECT * FROM sfn_state_machines ORDER BY name",
        rs ->
            new StateMachine(
                rs.getString("arn"),
                rs.getString("name"),
                rs.getString("definition"),
                rs.getString("role_arn"),
                rs.getString("description"),
                rs.getString("revision_id"),
                Database.instant(rs, "created_at"),
                Database.instant(rs, "updated_at")));
  }

  /** Inserts; false when that version number was taken concurrently. */
  public boolean insertVersion(Version v) {
    try {
      db.update(
          "INSERT INTO sfn_versions (arn, state_machine_arn, version, definition, role_arn, "
              + "revision_id, description, created_at) VALUES (?,?,?,?,?,?,?,?)",
          v.arn(),
          v.stateMachineArn(),
          v.version(),
          v.definition(),
          v.roleArn(),
          v.revisionId(),
          v.description(),
          v.createdAt());
      return true;
    } catch (Database.StoreException e) {
      if (e.uniqueViolation()) {
        return false;
      }
      throw e;
    }
  }

  public Version findVersion(String arn) {
    return db.one("SELECT * FROM sfn_versions WHERE arn = ?", StateMachineStore::version, arn);
  }

  public Version latestVersion(String stateMachineArn) {
    return db.one(
        "SELECT * FROM sfn_versions WHERE state_machine_arn = ? ORDER BY version DESC " + "LIMIT 1",
        StateMachineStore::version,
        stateMachineArn);
  }

  private static Version version(ResultSet rs) throws SQLException {
    return new Version(
        rs.getString("arn"),
        rs.getString("state_machine_arn"),
        rs.getInt("version"),
        rs.getString("definition"),
        rs.getString("role_arn"),
        rs.getString("revision_id"),
        rs.getString("description"),
        Database.instant(rs, "created_at"));
  }

  public boolean insertAlias(Alias a) {
    try {
      db.update(
          "INSERT INTO sfn_aliases (arn, state_machine_arn, name, description, routing, "
              + "created_at, updated_at) VALUES (?,?,?,?,?,?,?)",
          a.arn(),
          a.stateMachineArn(),
          a.name(),
          a.description(),
          a.routing(),
          a.createdAt(),
          a.updatedAt());
      return true;
    } catch (Database.StoreException e) {
      if (e.uniqueViolation()) {
        return false;
      }
      throw e;
    }
  }

  public void updateAlias(Alias a) {
    db.update(
        "UPDATE sfn_aliases SET description = ?, routing = ?, updated_at = ? WHERE arn = ?",
        a.description(),
        a.routing(),
        a.updatedAt(),
        a.arn());
  }

  public Alias findAlias(String arn) {
    return db.one(
        "SELECT * FROM sfn_aliases WHERE arn = ?",
        rs ->
            new Alias(
                rs.getString("arn"),
                rs.getString("state_machine_arn"),
                rs.getString("name"),
                rs.getString("description"),
                rs.getString("routing"),
                Database.instant(rs, "created_at"),
                Database.instant(rs, "updated_at")),
        arn);
  }
}
