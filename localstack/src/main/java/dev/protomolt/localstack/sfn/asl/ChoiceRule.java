package dev.protomolt.localstack.sfn.asl;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/** A Choice rule in the supported subset, evaluated as the AWS Choice state documents. */
public sealed interface ChoiceRule {

  /** True when the rule matches {@code data}. */
  boolean matches(JsonNode data, JsonNode context);

  /** A top-level rule with the state to go to when it matches. */
  record Branch(ChoiceRule rule, String next) {}

  enum Operator {
    StringEquals,
    StringEqualsPath,
    NumericEquals,
    NumericGreaterThan,
    NumericLessThan,
    BooleanEquals,
    IsPresent,
    IsNull
  }

  record Comparison(ReferencePath variable, Operator operator, JsonNode operand)
      implements ChoiceRule {
    @Override
    public boolean matches(JsonNode data, JsonNode context) {
      JsonNode value = variable.select(data, context);
      if (operator == Operator.IsPresent) {
        return (value != null) == operand.booleanValue();
      }
      if (value == null) {
        // AWS fails the execution when a Choice rule's Variable does not exist (use IsPresent).
        throw StatesError.runtime(
            "Invalid path '"
                + variable.text()
                + "': The choice state's condition path references an invalid value.");
      }
      return switch (operator) {
        case IsNull -> value.isNull() == operand.booleanValue();
        case StringEquals -> value.isTextual() && value.textValue().equals(operand.textValue());
        case StringEqualsPath -> {
          JsonNode other = ReferencePath.parse(operand.textValue()).select(data, context);
          if (other == null) {
            throw StatesError.runtime(
                "Invalid path '"
                    + operand.textValue()
                    + "': The choice state's condition path references an invalid value.");
          }
          yield value.isTextual()
              && other.isTextual()
              && value.textValue().equals(other.textValue());
        }
        case NumericEquals ->
            value.isNumber() && value.decimalValue().compareTo(operand.decimalValue()) == 0;
        case NumericGreaterThan ->
            value.isNumber() && value.decimalValue().compareTo(operand.decimalValue()) > 0;
        case NumericLessThan ->
            value.isNumber() && value.decimalValue().compareTo(operand.decimalValue()) < 0;
        case BooleanEquals -> value.isBoolean() && value.booleanValue() == operand.booleanValue();
        case IsPresent -> throw new IllegalStateException("handled above");
      };
    }
  }

  record And(List<ChoiceRule> rules) implements ChoiceRule {
    @Override
    public boolean matches(JsonNode data, JsonNode context) {
      for (ChoiceRule rule : rules) {
        if (!rule.matches(data, context)) {
          return false;
        }
      }
      return true;
    }
  }

  record Or(List<ChoiceRule> rules) implements ChoiceRule {
    @Override
    public boolean matches(JsonNode data, JsonNode context) {
      for (ChoiceRule rule : rules) {
        if (rule.matches(data, context)) {
          return true;
        }
      }
      return false;
    }
  }

  record Not(ChoiceRule rule) implements ChoiceRule {
    @Override
    public boolean matches(JsonNode data, JsonNode context) {
      return !rule.matches(data, context);
    }
  }
}
