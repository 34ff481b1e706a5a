package dev.protomolt.gateway.diagnostics;

import java.net.URI;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * How the gateway's diagnostics surface is switched and where its dependencies are.
 *
 * @param enabled whether {@code EngineDiagnosticsService} and {@code /engine/diagnostics/} exist
 *     at all; off by default, and off they answer exactly as if never built
 * @param adminPort the admin HTTP port ({@code /health} and the REST shell), 0 for any free one;
 *     empty runs no admin server (the stack always sets it, to {@value #DEFAULT_ADMIN_PORT})
 * @param draftsTable the graph drafts table the drafts probe writes its canary to; empty when the
 *     environment has none configured, and then the probe says so
 * @param dynamoDbEndpoint empty for AWS itself, the local cloud's dynalite otherwise
 */
public record DiagnosticsSettings(
    boolean enabled,
    OptionalInt adminPort,
    Optional<String> draftsTable,
    Optional<URI> dynamoDbEndpoint) {

  public static final int DEFAULT_ADMIN_PORT = 18101;
}
