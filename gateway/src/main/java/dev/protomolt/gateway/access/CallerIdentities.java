package dev.protomolt.gateway.access;

/** Turns the token a caller presented into the identity STS vouches for. */
public interface CallerIdentities {

  /**
   * @param metadataValue the {@code authorization} metadata as received, null when absent
   * @throws CallerRefusedException {@code UNAUTHENTICATED} for a missing, malformed or refused
   *     token; {@code UNAVAILABLE} when STS could not be asked
   */
  VerifiedCaller verify(String metadataValue) throws CallerRefusedException;
}
