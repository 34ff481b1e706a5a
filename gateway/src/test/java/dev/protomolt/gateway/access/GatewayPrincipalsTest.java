package dev.protomolt.gateway.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class GatewayPrincipalsTest {

  private static final String PARSER = "arn:aws:iam::123456789012:role/pm-dev-parser";
  private static final String OPS = "arn:aws:iam::123456789012:role/ops/pm-dev-operators";

  private static GatewayPrincipals parse(String modules, String operators) {
    return GatewayPrincipals.parse("MODULES", modules, "OPERATORS", operators);
  }

  @Test
  void aRoleSessionIsItsRoleAndPathsDoNotMatter() {
    GatewayPrincipals p = parse("parser=" + PARSER + ";chunker=" + PARSER, OPS + "=acme|beta");
    VerifiedCaller parserTask =
        VerifiedCaller.of("arn:aws:sts::123456789012:assumed-role/pm-dev-parser/task-1234");
    VerifiedCaller operator =
        VerifiedCaller.of("arn:aws:sts::123456789012:assumed-role/pm-dev-operators/alice");

    assertThat(p.mayServe(parserTask, "parser")).isTrue();
    assertThat(p.mayServe(parserTask, "chunker")).isTrue();
    assertThat(p.mayServe(parserTask, "embedder")).isFalse();
    assertThat(p.mayActOn(parserTask, "acme")).isFalse();
    assertThat(p.mayActOn(operator, "acme")).isTrue();
    assertThat(p.mayActOn(operator, "gamma")).isFalse();
    assertThat(p.isPlatformOperator(operator)).isFalse();
    assertThat(p.mayServe(operator, "parser")).isFalse();
  }

  @Test
  void aStarOperatorActsOnEveryAccount() {
    GatewayPrincipals p = parse("", OPS + "=*");
    VerifiedCaller operator = VerifiedCaller.of(OPS);

    assertThat(p.mayActOn(operator, "anything")).isTrue();
    assertThat(p.isPlatformOperator(operator)).isTrue();
  }

  @Test
  void nothingConfiguredRefusesEveryone() {
    GatewayPrincipals p = parse(null, null);
    VerifiedCaller anyone = VerifiedCaller.of(PARSER);

    assertThat(p.mayServe(anyone, "parser")).isFalse();
    assertThat(p.mayActOn(anyone, "acme")).isFalse();
    assertThat(p.isModule(anyone)).isFalse();
  }

  @Test
  void everyBadEntryIsNamedWithItsSetting() {
    assertThatThrownBy(() -> parse("parser", null))
        .hasMessage("MODULES: each entry must be 'name=value|value', got 'parser'");
    assertThatThrownBy(() -> parse("pars er=" + PARSER, null))
        .hasMessageContaining("MODULES: module id 'pars er'");
    assertThatThrownBy(() -> parse("parser=not-an-arn", null))
        .hasMessageContaining("MODULES: 'not-an-arn' is not an IAM role");
    assertThatThrownBy(() -> parse(null, OPS + "=acme||beta"))
        .hasMessageContaining("OPERATORS: entry")
        .hasMessageContaining("has an empty value");
    assertThatThrownBy(() -> parse(null, OPS + "=ac me"))
        .hasMessageContaining("OPERATORS: account 'ac me' must be '*'");
  }
}
