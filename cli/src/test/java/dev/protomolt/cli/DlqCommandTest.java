package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code protomolt dlq} through the Lambda Invoke API of the running platform: the dead-letter
 * function answers, and its refusals reach the user naming the flag. Reprocessing up to the cap
 * and the quarantine are proven on real Kafka, Postgres and Step Functions by the engine's {@code
 * DeadLetterAdminTest}.
 */
@ExtendWith(SharedPlatform.Resolver.class)
class DlqCommandTest {

  static final String ACCOUNT = "dlq-cli";
  static final String DATASOURCE = "dlq-cli-docs";
  static final String GRAPH = "dlq-cli-demo";

  static SharedPlatform shared;

  @BeforeAll
  static void graph(SharedPlatform platform) {
    shared = platform;
    platform.platform().provisionAccount(ACCOUNT, DATASOURCE);
    platform
        .platform()
        .applyAndActivate(
            DemoGraph.of(ACCOUNT, DATASOURCE, LocalPlatform.CLUSTER).toBuilder()
                .setGraphId(GRAPH)
                .build());
  }

  @Test
  void aGraphWithoutDeadLettersListsNone() {
    CommandRun run = dlq("list", "--account", ACCOUNT, "--graph", GRAPH);
    assertThat(run.status()).as(run.toString()).isZero();
    assertThat(run.out()).contains("0 dead letters");
  }

  @Test
  void anUnknownLetterIsRefusedNamingTheFlag() {
    CommandRun run = dlq("show", "--account", ACCOUNT, "--graph", GRAPH, "--dlq-id", "nope");
    assertThat(run.status()).as(run.toString()).isEqualTo(CommandFailure.REFUSED);
    assertThat(run.err()).contains("--dlq-id: no dead letter 'nope' on graph '" + GRAPH + "'");

    CommandRun reprocess =
        dlq("reprocess", "--account", ACCOUNT, "--graph", GRAPH, "--dlq-id", "nope");
    assertThat(reprocess.status()).as(reprocess.toString()).isEqualTo(CommandFailure.REFUSED);
    assertThat(reprocess.err()).contains("--dlq-id: no dead letter 'nope'");
  }

  @Test
  void anotherAccountsGraphIsRefusedNamingTheAccount() {
    CommandRun run = dlq("list", "--account", "someone-else", "--graph", GRAPH);
    assertThat(run.status()).as(run.toString()).isEqualTo(CommandFailure.REFUSED);
    assertThat(run.err())
        .contains("--account: graph '" + GRAPH + "' is not a graph of account 'someone-else'");
  }

  @Test
  void reprocessNeedsOneLetterOrAll() {
    CommandRun run = dlq("reprocess", "--account", ACCOUNT, "--graph", GRAPH);
    assertThat(run.status()).as(run.toString()).isEqualTo(CommandFailure.REFUSED);
    assertThat(run.err()).contains("--dlq-id: give one dead letter's id, or --all, not both");
  }

  private static CommandRun dlq(String... args) {
    String[] all = new String[args.length + 3];
    all[0] = "dlq";
    System.arraycopy(args, 0, all, 1, args.length);
    all[args.length + 1] = "--data";
    all[args.length + 2] = shared.data().toString();
    return CommandRun.of(all);
  }
}
