package dev.protomolt.engine.activation;

import dev.protomolt.core.cel.PipelineCelEnvironment;
import dev.protomolt.core.graph.GraphEventPublisher;
import dev.protomolt.core.graph.validation.GraphValidator;
import dev.protomolt.core.graph.validation.TenancyDirectory;
import dev.protomolt.core.orchestration.TopicProvisioning;
import dev.protomolt.engine.graphs.GraphAdminService;
import dev.protomolt.engine.graphs.PostgresGraphStore;
import dev.protomolt.engine.graphs.PostgresIndexPlans;
import dev.protomolt.engine.graphs.StepFunctionsVersionPins;
import java.time.InstantSource;
import java.util.Objects;
import javax.sql.DataSource;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * Graph admin with activation attached, as every deployed door builds it: the graph-admin function
 * and the gateway's {@code PipelineGraphService} both take it from here, so the two cannot drift
 * apart in how they validate, store, publish and deploy a graph.
 *
 * @param admin create, validate, activate, deactivate and delete graph versions; activation
 *     through it deploys, because {@link #activation} attached itself when it was built
 * @param activation compile, publish and alias on Step Functions, dead-letter topics first
 * @param validator the validator admin uses, for services that validate beside it (drafts)
 */
public record GraphAdministration(
    GraphAdminService admin, GraphActivationService activation, GraphValidator validator) {

  public GraphAdministration {
    Objects.requireNonNull(admin, "admin");
    Objects.requireNonNull(activation, "activation");
    Objects.requireNonNull(validator, "validator");
  }

  /**
   * Wires admin over the ledger's graph store, with the standard validation rules (tenancy and the
   * index plans sink modules declared), and activation on Step Functions.
   *
   * @param ledger the ledger database (graph versions, index plans)
   * @param sfn the Step Functions client activation deploys with
   * @param executionRoleArn the role every graph state machine runs as
   * @param functions the environment name and the hop functions the definitions invoke
   * @param events where graph lifecycle events go (graph-updates in every deployment)
   * @param tenancy who owns and who was granted a datasource
   * @param topics creates a version's dead-letter topics before its alias moves
   */
  public static GraphAdministration wire(
      DataSource ledger,
      SfnClient sfn,
      String executionRoleArn,
      EngineFunctions functions,
      GraphEventPublisher events,
      TenancyDirectory tenancy,
      TopicProvisioning topics,
      InstantSource clock) {
    PostgresGraphStore graphs = new PostgresGraphStore(ledger);
    GraphValidator validator =
        GraphValidator.standard(
            PipelineCelEnvironment.create(), tenancy, new PostgresIndexPlans(ledger, clock));
    GraphAdminService admin =
        new GraphAdminService(
            graphs, new StepFunctionsVersionPins(sfn, graphs), events, validator, clock);
    GraphActivationService activation =
        new GraphActivationService(
            admin, new SfnStateMachines(sfn, executionRoleArn), functions, topics);
    return new GraphAdministration(admin, activation, validator);
  }
}
