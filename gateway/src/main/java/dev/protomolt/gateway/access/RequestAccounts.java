package dev.protomolt.gateway.access;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The accounts an operator request acts on, read from the request itself: every top-level string
 * field named {@code account_id} or {@code <role>_account_id}, and the account of every top-level
 * {@code DocumentReference}. Reading the request (never the store) is what keeps a refusal from
 * saying whether anything exists. A field left empty counts as naming no account.
 */
final class RequestAccounts {

  private static final String DOCUMENT_REFERENCE = "protomolt.data.v1.DocumentReference";

  private RequestAccounts() {}

  static Set<String> of(Object request) {
    Set<String> accounts = new LinkedHashSet<>();
    if (!(request instanceof Message message)) {
      return accounts;
    }
    for (FieldDescriptor field : message.getDescriptorForType().getFields()) {
      if (field.isRepeated()) {
        continue;
      }
      if (field.getJavaType() == FieldDescriptor.JavaType.STRING && namesAccount(field)) {
        String value = (String) message.getField(field);
        if (!value.isEmpty()) {
          accounts.add(value);
        }
      } else if (field.getJavaType() == FieldDescriptor.JavaType.MESSAGE
          && field.getMessageType().getFullName().equals(DOCUMENT_REFERENCE)
          && message.hasField(field)) {
        Message ref = (Message) message.getField(field);
        FieldDescriptor account = ref.getDescriptorForType().findFieldByName("account_id");
        String value = (String) ref.getField(account);
        if (!value.isEmpty()) {
          accounts.add(value);
        }
      }
    }
    return accounts;
  }

  private static boolean namesAccount(FieldDescriptor field) {
    return field.getName().equals("account_id") || field.getName().endsWith("_account_id");
  }
}
