package dev.protomolt.gateway.access;

import dev.protomolt.identity.OperatorGrants;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which verified principals may do what, from the stack's configuration: the module ids each
 * module principal may serve, and the accounts each operator principal may act on ({@code *}: all
 * of them, and the platform-wide doors that name no account). A principal named nowhere may do
 * nothing; an empty configuration refuses every caller.
 *
 * <p>Both settings have one syntax: {@code key=ARN|ARN;key=ARN} for modules (module id to the
 * roles that may serve it) and {@code ARN=account|account;ARN=*} for operators.
 */
public final class GatewayPrincipals {

  /** An operator allowed every account and the platform-wide doors. */
  public static final String ALL_ACCOUNTS = OperatorGrants.ALL_ACCOUNTS;

  private static final Pattern MODULE_ID = Pattern.compile("[A-Za-z0-9._-]+");

  private final Map<String, Set<String>> modulesByPrincipal;
  private final OperatorGrants operators;

  private GatewayPrincipals(Map<String, Set<String>> modulesByPrincipal, OperatorGrants operators) {
    this.modulesByPrincipal = modulesByPrincipal;
    this.operators = operators;
  }

  /** Nobody may do anything. */
  public static GatewayPrincipals none() {
    return new GatewayPrincipals(Map.of(), OperatorGrants.none());
  }

  /**
   * @param modulesKey and {@code operatorsKey}: the setting names, for messages
   * @throws IllegalArgumentException naming the setting and the entry that breaks its syntax
   */
  public static GatewayPrincipals parse(
      String modulesKey, String modules, String operatorsKey, String operators) {
    Map<String, Set<String>> byPrincipal = new LinkedHashMap<>();
    for (Map.Entry<String, Set<String>> e :
        OperatorGrants.entries(modulesKey, modules).entrySet()) {
      if (!MODULE_ID.matcher(e.getKey()).matches()) {
        throw new IllegalArgumentException(
            modulesKey
                + ": module id '"
                + e.getKey()
                + "' must be letters, digits, '.', '_' or '-'");
      }
      for (String arn : e.getValue()) {
        byPrincipal
            .computeIfAbsent(principal(modulesKey, arn), k -> new LinkedHashSet<>())
            .add(e.getKey());
      }
    }
    byPrincipal.replaceAll((k, v) -> Set.copyOf(v));
    return new GatewayPrincipals(
        Map.copyOf(byPrincipal), OperatorGrants.parse(operatorsKey, operators));
  }

  /** Whether {@code caller} may open work streams for {@code moduleId}. */
  public boolean mayServe(VerifiedCaller caller, String moduleId) {
    return modulesByPrincipal.getOrDefault(caller.principal(), Set.of()).contains(moduleId);
  }

  /** Whether {@code caller} serves any module at all. */
  public boolean isModule(VerifiedCaller caller) {
    return modulesByPrincipal.containsKey(caller.principal());
  }

  /** Whether {@code caller} may act on {@code accountId} through the operator doors. */
  public boolean mayActOn(VerifiedCaller caller, String accountId) {
    return operators.mayActOn(caller.principal(), accountId);
  }

  /** Whether {@code caller} is an operator of every account (and the platform-wide doors). */
  public boolean isPlatformOperator(VerifiedCaller caller) {
    return operators.isPlatformOperator(caller.principal());
  }

  /** How many principals are configured, for the start-up line. */
  public String summary() {
    return modulesByPrincipal.size()
        + " module principal(s), "
        + operators.size()
        + " operator principal(s)";
  }

  private static String principal(String key, String arn) {
    try {
      return VerifiedCaller.principalOf(arn);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(key + ": " + e.getMessage(), e);
    }
  }
}
